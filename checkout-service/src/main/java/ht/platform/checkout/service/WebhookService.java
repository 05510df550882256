package ht.platform.checkout.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.checkout.config.CheckoutSettings;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.events.CheckoutDeliveryPolicy;
import ht.platform.checkout.model.Event;
import ht.platform.checkout.model.EventStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.AddressService;
import ht.platform.support.outbox.DeliveryKind;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.DeliveryRestarts;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.support.time.Timestamps;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.destination.UrlDecision;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** Webhook endpoints (secrets sealed at rest), the event log with its deliveries and attempts, and resend. */
@ApplicationScoped
public class WebhookService {

    public static final int MAX_ENDPOINTS = 10;

    @Inject
    WebhookSettings settings;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper mapper;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    DeliveryRestarts restarts;

    @Inject
    DeliveryLog deliveries;

    @Inject
    CheckoutDeliveryPolicy policy;

    @Inject
    CheckoutSettings config;

    @Inject
    AddressService addresses;

    @Inject
    EventStore eventLog;

    public Uni<Views.WebhookEndpointView> create(ApiPrincipal caller, String url, List<String> events, String delivery) {
        DeliveryKind kind = DeliveryKind.of(delivery);
        kind.checkUrlPresence(url);
        if (url != null) {
            UrlDecision decision = new OutgoingUrlPolicy(settings.allowPrivateTargets()).checkUrl(url);
            if (!decision.allowed()) {
                throw ApiException.invalid("url", "url is not allowed: " + decision.reason());
            }
        }
        List<String> types = events == null ? EventTypes.ALL : List.copyOf(new LinkedHashSet<>(events));
        if (types.isEmpty()) {
            throw ApiException.invalid("events", "events must name at least one event type");
        }
        for (String t : types) {
            if (!EventTypes.ALL.contains(t)) {
                throw ApiException.invalid("events", "Unknown event type '" + t + "'; known: " + EventTypes.ALL);
            }
        }
        String id = Ids.ulid("pay_we_", clock);
        return addresses.register(rules(), new AddressService.Registration(caller.ownerId(), caller.mode(), id, id, kind, url,
                        types, false), new AddressService.Limit("checkout.applications", MAX_ENDPOINTS, false,
                        () -> new ApiException(409, "WEBHOOK_ENDPOINT_LIMIT", "At most " + MAX_ENDPOINTS
                                + " webhook endpoints per application")))
                .map(issued -> Views.of(issued.address(), issued.secret()));
    }

    public Uni<Views.ListView<Views.WebhookEndpointView>> list(ApiPrincipal caller) {
        return addresses.list(rules(), caller.ownerId(), caller.mode())
                .map(list -> Views.ListView.of(list.stream().map(e -> Views.of(e, null)).toList(), false));
    }

    /**
     * A new secret, shown once; the previous one keeps signing (a second signature) for the overlap. A rotation while
     * an overlap lasts is 409 ROTATION_IN_PROGRESS.
     */
    public Uni<Views.SecretRotated> rotate(ApiPrincipal caller, String id) {
        return addresses.rotate(rules(), caller.ownerId(), caller.mode(), id, config.rotationOverlap(),
                        until -> new ApiException(409, "ROTATION_IN_PROGRESS", "The previous secret signs until "
                                + Timestamps.seconds(until) + "; rotate again after that"))
                .map(r -> new Views.SecretRotated(r.address().id(), "webhook_endpoint", r.secret(),
                        Timestamps.seconds(r.previousSecretExpiresAt())));
    }

    /** Recover a window of this endpoint: see {@link DeliveryRestarts}. */
    public Uni<Views.RecoveryView> recover(ApiPrincipal caller, String id, Instant since, Instant until) {
        return addresses.recover(rules(), restarts, caller.ownerId(), caller.mode(), id, since, until)
                .map(r -> new Views.RecoveryView("webhook_recovery", id, Timestamps.seconds(since), Timestamps.seconds(until),
                        r.resent(), r.replayed(), Timestamps.seconds(r.createdAt())));
    }

    /** The endpoint receives nothing from now on; its deliveries stay in its events' history. */
    public Uni<Void> delete(ApiPrincipal caller, String id) {
        return addresses.delete(rules(), caller.ownerId(), caller.mode(), id, false);
    }

    private AddressService.Rules rules() {
        return new AddressService.Rules(policy, "Webhook endpoint");
    }

    public Uni<Views.ListView<Views.EventView>> events(ApiPrincipal caller, Integer limit, String startingAfter, String type) {
        int n = limit == null ? 10 : limit;
        if (n < 1 || n > 100) {
            throw ApiException.invalid("limit", "limit must be between 1 and 100");
        }
        if (type != null && !EventTypes.ALL.contains(type)) {
            throw ApiException.invalid("type", "Unknown event type '" + type + "'");
        }
        return eventLog.readPage(caller.ownerId(), caller.mode(), type, startingAfter, n + 1).map(rows -> Views.ListView.of(rows.stream().limit(n).map(e -> Views.of(e, data(e), null)).toList(), rows.size() > n));
    }

    /** The events about one object (a payment intent, a refund), newest first: how API logs lead to deliveries. */
    public Uni<List<Views.EventView>> eventsAbout(ApiPrincipal caller, String objectId) {
        return eventLog.readAbout(caller.ownerId(), caller.mode(), objectId, 50)
                .map(rows -> rows.stream().map(e -> Views.of(e, data(e), null)).toList());
    }

    public Uni<Views.EventView> event(ApiPrincipal caller, String id) {
        return Panache.withSession(() -> owned(caller, id)).chain(e -> deliveries.page(policy,
                        DeliveryLog.Query.of(caller.ownerId(), caller.mode()).event(id), null, MAX_ENDPOINTS * 10)
                .chain(ds -> deliveries.attempts(policy, ds.stream().map(DeliveryLog.Delivery::id).toList()).map(attempts -> {
                    List<Views.DeliveryView> views = new ArrayList<>();
                    for (DeliveryLog.Delivery d : ds) {
                        views.add(0, Views.of(d, policy.words(), attempts.get(d.id()))); // oldest first
                    }
                    return Views.of(e, data(e), views);
                })));
    }

    /** Sends the event again to its endpoints (dead letters included): a fresh schedule, the same event id and body. */
    public Uni<Views.EventView> resend(ApiPrincipal caller, String id) {
        return Panache.withSession(() -> owned(caller, id))
                .chain(e -> restarts.resendEvent(policy, caller.ownerId(), caller.mode(), id))
                .chain(() -> event(caller, id));
    }

    private Uni<Event> owned(ApiPrincipal caller, String id) {
        return eventLog.byId(id).invoke(e -> {
            if (e == null || !e.applicationId.equals(caller.ownerId()) || !e.mode.equals(caller.mode())) {
                throw ApiException.notFound("Event " + id);
            }
        });
    }

    private Object data(Event e) {
        try {
            Map<?, ?> body = mapper.readValue(e.body, Map.class);
            return body.get("data");
        } catch (Exception ex) {
            return null;
        }
    }

}
