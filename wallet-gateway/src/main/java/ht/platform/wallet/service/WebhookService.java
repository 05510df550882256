package ht.platform.wallet.service;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.AddressService;
import ht.platform.support.outbox.DeliveryKind;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.DeliveryRestarts;
import ht.platform.support.time.Timestamps;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.events.EventTypes;
import ht.platform.wallet.events.EventOutbox;
import ht.platform.wallet.events.WalletDeliveryPolicy;
import ht.platform.wallet.service.Views.DeliveryView;
import ht.platform.wallet.service.Views.ListView;
import ht.platform.wallet.service.Views.PingView;
import ht.platform.wallet.service.Views.RecoveryView;
import ht.platform.wallet.service.Views.SecretRotated;
import ht.platform.wallet.service.Views.WebhookCreated;
import ht.platform.wallet.service.Views.WebhookView;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.destination.UrlDecision;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Webhook addresses of a (project, mode) and the dashboard actions as API operations. */
@ApplicationScoped
public class WebhookService {

    public record RegisterWebhook(String url, List<String> events, String delivery) { }

    /** The dashboard's delivery filters; null means any. */
    public record DeliveryFilter(String webhookId, String status, String eventType) { }

    @Inject
    DeliveryRestarts restarts;

    @Inject
    DeliveryLog log;

    @Inject
    WalletDeliveryPolicy policy;

    @Inject
    WalletSettings settings;

    @Inject
    EventOutbox events;

    @Inject
    AddressService addresses;

    @ConfigProperty(name = "webhooks.allow-private-targets", defaultValue = "false")
    boolean allowPrivateTargets;

    public Uni<WebhookCreated> register(ApiPrincipal caller, RegisterWebhook body) {
        if (body == null) {
            throw ApiException.invalid(null, "A JSON body is required");
        }
        DeliveryKind kind = DeliveryKind.of(body.delivery());
        String url = body.url() == null || body.url().isBlank() ? null : body.url();
        kind.checkUrlPresence(url);
        if (url != null) {
            UrlDecision decision = new OutgoingUrlPolicy(allowPrivateTargets).checkUrl(url);
            if (!decision.allowed()) {
                throw new ApiException(400, "URL_NOT_ALLOWED", decision.reason(), "url");
            }
        }
        List<String> kinds = validateEvents(body.events());
        String id = Ids.hex("we_", 12);
        int max = settings.webhooks().maxEndpoints();
        return addresses.register(rules(), new AddressService.Registration(caller.ownerId(), caller.mode(), id, id, kind,
                                url, kinds, false),
                        new AddressService.Limit("wallet.projects", max, true, () -> new ApiException(409,
                                "WEBHOOK_LIMIT_REACHED", "A project can register at most " + max
                                + " webhook addresses per mode; delete one first")))
                .map(issued -> {
                    WebhookView v = WebhookView.of(issued.address());
                    return new WebhookCreated(v.id(), v.object(), v.url(), v.events(), v.status(), v.mode(), v.delivery(),
                            issued.secret(), v.created_at());
                });
    }

    public Uni<ListView<WebhookView>> list(ApiPrincipal caller) {
        return addresses.list(rules(), caller.ownerId(), caller.mode())
                .map(rows -> ListView.of(rows.stream().map(WebhookView::of).toList(), false));
    }

    public Uni<WebhookView> get(ApiPrincipal caller, String id) {
        return addresses.get(rules(), caller.ownerId(), caller.mode(), id).map(WebhookView::of);
    }

    /** Removes the address; its pending deliveries (and their history) go with it. */
    public Uni<Void> delete(ApiPrincipal caller, String id) {
        return addresses.delete(rules(), caller.ownerId(), caller.mode(), id, true);
    }

    /** paused -> active; the held deliveries become due at once and go out in their original order. */
    public Uni<WebhookView> reactivate(ApiPrincipal caller, String id) {
        return addresses.reactivate(rules(), caller.ownerId(), caller.mode(), id, a -> new ApiException(409,
                "WEBHOOK_NOT_PAUSED", "Webhook " + id + " is " + WebhookView.status(a)
                + "; only a paused address can be reactivated")).map(WebhookView::of);
    }

    /**
     * A new secret, shown once; the previous one keeps signing (second signature) for the overlap. A rotation while an
     * overlap lasts is 409 ROTATION_IN_PROGRESS.
     */
    public Uni<SecretRotated> rotate(ApiPrincipal caller, String id) {
        return addresses.rotate(rules(), caller.ownerId(), caller.mode(), id, settings.webhooks().rotationOverlap(),
                        until -> new ApiException(409, "ROTATION_IN_PROGRESS", "The previous secret signs until "
                                + Timestamps.millis(until) + "; rotate again after that"))
                .map(r -> new SecretRotated(r.address().id(), "webhook_endpoint", r.secret(),
                        Timestamps.millis(r.previousSecretExpiresAt())));
    }

    /** A webhook.ping event to this address only. */
    public Uni<PingView> ping(ApiPrincipal caller, String id) {
        return addresses.test(rules(), caller.ownerId(), caller.mode(), id,
                () -> ApiException.conflict("PULL_ADDRESS", "A pull address is never sent anything: read its events"
                        + " from GET /api/v1/events"),
                a -> {
                    Map<String, Object> object = new LinkedHashMap<>();
                    object.put("object", "test");
                    object.put("webhook_id", a.id());
                    return Panache.withTransaction(() -> events.publishTo(a.id(), a.ownerId(), a.mode(), EventTypes.PING, object))
                            .map(ev -> new PingView(ev.id(), "webhook_ping", ev.id(), ev.type(), a.id(), WebhookView.status(a)));
                });
    }

    public Uni<ListView<DeliveryView>> deliveries(ApiPrincipal caller, String id, Paging paging) {
        return get(caller, id).chain(e -> page(DeliveryLog.Query.of(caller.ownerId(), caller.mode()).destination(e.id()), paging));
    }

    /** An abandoned or delivered delivery is queued again with the same event (id and body). */
    public Uni<DeliveryView> resend(ApiPrincipal caller, String deliveryId) {
        return delivery(caller, deliveryId)
                .chain(d -> restarts.resend(policy, caller.ownerId(), caller.mode(), deliveryId))
                .chain(n -> {
                    if (n == 0) {
                        throw new ApiException(409, "DELIVERY_ALREADY_PENDING", "Webhook delivery " + deliveryId + " is already queued");
                    }
                    return delivery(caller, deliveryId);
                });
    }

    /** One delivery with its attempts; another tenant's (or mode's) delivery is 404. */
    public Uni<DeliveryView> delivery(ApiPrincipal caller, String deliveryId) {
        return log.one(policy, caller.ownerId(), caller.mode(), deliveryId).chain(d -> {
            if (d == null) {
                throw ApiException.notFound("Webhook delivery " + deliveryId);
            }
            return describe(List.of(d)).map(list -> list.get(0));
        });
    }

    /** The delivery statuses in the gateway's words, in the order pending, delivered, abandoned. */
    public List<String> deliveryStatuses() {
        return policy.words().all();
    }

    /** Deliveries of every address of this project and mode, newest first, filtered by address, status and event kind. */
    public Uni<ListView<DeliveryView>> searchDeliveries(ApiPrincipal caller, DeliveryFilter filter, Paging paging) {
        String status = filter.status() == null ? null : policy.words().status(filter.status());
        if (filter.status() != null && status == null) {
            throw ApiException.invalid("status", "status must be one of " + deliveryStatuses());
        }
        if (filter.eventType() != null && !EventTypes.SUBSCRIBABLE.contains(filter.eventType()) && !EventTypes.PING.equals(filter.eventType())) {
            throw ApiException.invalid("type", "Unknown event kind '" + filter.eventType() + "'");
        }
        return page(DeliveryLog.Query.of(caller.ownerId(), caller.mode()).destination(filter.webhookId()).status(status)
                .eventType(filter.eventType()), paging);
    }

    /** Recover a window of this address: see {@link DeliveryRestarts}. */
    public Uni<RecoveryView> recover(ApiPrincipal caller, String webhookId, Instant since, Instant until) {
        return addresses.recover(rules(), restarts, caller.ownerId(), caller.mode(), webhookId, since, until)
                .map(r -> new RecoveryView("webhook_recovery", webhookId, Timestamps.millis(since), Timestamps.millis(until),
                        r.resent(), r.replayed(), Timestamps.millis(r.createdAt())));
    }

    private Uni<ListView<DeliveryView>> page(DeliveryLog.Query query, Paging paging) {
        return log.page(policy, query, paging.startingAfter(), paging.limit() + 1)
                .chain(rows -> describe(rows.stream().limit(paging.limit()).toList())
                        .map(views -> ListView.of(views, rows.size() > paging.limit())));
    }

    private Uni<List<DeliveryView>> describe(List<DeliveryLog.Delivery> rows) {
        return log.attempts(policy, rows.stream().map(DeliveryLog.Delivery::id).toList())
                .map(attempts -> rows.stream().map(d -> Views.delivery(d, policy.words(), attempts.get(d.id()))).toList());
    }

    private AddressService.Rules rules() {
        return new AddressService.Rules(policy, "Webhook", () -> Ids.hex("whsec_", 32));
    }

    private static List<String> validateEvents(List<String> kinds) {
        if (kinds == null || kinds.isEmpty()) {
            throw ApiException.invalid("events", "events is required: one or more of " + EventTypes.SUBSCRIBABLE);
        }
        Set<String> out = new LinkedHashSet<>();
        for (String kind : kinds) {
            if (kind == null || !EventTypes.SUBSCRIBABLE.contains(kind)) {
                throw ApiException.invalid("events", "Unknown event kind '" + kind + "'; known: " + EventTypes.SUBSCRIBABLE);
            }
            out.add(kind);
        }
        return List.copyOf(out);
    }
}
