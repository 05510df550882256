package ht.platform.wallet.service;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.DeliveryKind;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.DeliveryRestarts;
import ht.platform.support.time.DatabaseTime;
import ht.platform.support.time.Timestamps;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.events.EventTypes;
import ht.platform.wallet.events.EventOutbox;
import ht.platform.wallet.events.WalletDeliveryPolicy;
import ht.platform.wallet.model.WebhookEndpoint;
import ht.platform.wallet.model.WebhookEndpointStore;
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

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
    Clock clock;

    @Inject
    WalletSettings settings;

    @Inject
    SecretBox secretBox;

    @Inject
    EventOutbox events;

    @Inject
    WebhookEndpointStore endpoints;


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
        String[] kinds = validateEvents(body.events());
        Instant now = now();
        WebhookEndpoint e = new WebhookEndpoint();
        e.id = Ids.hex("we_", 12);
        e.projectId = caller.ownerId();
        e.mode = caller.mode();
        e.url = url;
        e.delivery = kind.word();
        e.events = kinds;
        e.status = "active";
        String secret = newSecret();
        e.secretSealed = secretBox.sealText(secret, e.id);
        e.consecutiveFailures = 0;
        e.createdAt = now;
        return Panache.withTransaction(() -> endpoints.countLocked(caller.ownerId(), caller.mode())
                .chain(count -> {
                    if (count >= settings.webhooks().maxEndpoints()) {
                        throw new ApiException(409, "WEBHOOK_LIMIT_REACHED", "A project can register at most "
                                + settings.webhooks().maxEndpoints() + " webhook addresses per mode; delete one first");
                    }
                    return endpoints.persist(e);
                }))
                .map(x -> new WebhookCreated(e.id, "webhook_endpoint", e.url, List.of(e.events), e.status, e.mode,
                        e.delivery, secret, Timestamps.millis(e.createdAt)));
    }

    public Uni<ListView<WebhookView>> list(ApiPrincipal caller) {
        return endpoints.readAll(caller.ownerId(), caller.mode())
                .map(rows -> ListView.of(rows.stream().map(WebhookView::of).toList(), false));
    }

    public Uni<WebhookView> get(ApiPrincipal caller, String id) {
        return Panache.withSession(() -> find(caller, id, false)).map(WebhookView::of);
    }

    /** Removes the address; its pending deliveries (and their history) go with it. */
    public Uni<Void> delete(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> find(caller, id, true)
                .chain(e -> Panache.getSession().chain(s -> restarts.forgetDestination(s, policy, e.id)).chain(() -> endpoints.delete(e))));
    }

    /** paused -> active; the held deliveries become due at once and go out in their original order. */
    public Uni<WebhookView> reactivate(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> find(caller, id, true).chain(e -> {
            if (!"paused".equals(e.status)) {
                throw new ApiException(409, "WEBHOOK_NOT_PAUSED", "Webhook " + id + " is " + e.status + "; only a paused address can be reactivated");
            }
            e.status = "active"; // what the generated column becomes once paused_at is cleared
            e.pausedAt = null;
            e.consecutiveFailures = 0;
            return Panache.getSession().chain(s -> restarts.releaseHeld(s, policy, e.id, now())).replaceWith(e);
        })).map(WebhookView::of);
    }

    /**
     * A new secret, shown once; the previous one keeps signing (second signature) for the overlap. A rotation while an
     * overlap lasts is 409 ROTATION_IN_PROGRESS: replacing the previous secret early would drop a secret still in use.
     */
    public Uni<SecretRotated> rotate(ApiPrincipal caller, String id) {
        String secret = newSecret();
        Instant now = now();
        Instant until = now.plus(settings.webhooks().rotationOverlap());
        return Panache.withTransaction(() -> find(caller, id, true).invoke(e -> {
            if (e.previousSecretExpiresAt != null && e.previousSecretExpiresAt.isAfter(now)) {
                throw new ApiException(409, "ROTATION_IN_PROGRESS", "The previous secret signs until "
                        + Timestamps.millis(e.previousSecretExpiresAt) + "; rotate again after that");
            }
            e.previousSecretSealed = e.secretSealed;
            e.previousSecretExpiresAt = until;
            e.secretSealed = secretBox.sealText(secret, e.id);
        })).map(e -> new SecretRotated(e.id, "webhook_endpoint", secret, Timestamps.millis(until)));
    }

    /** A webhook.ping event to this address only. */
    public Uni<PingView> ping(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> find(caller, id, false).chain(e -> {
            if (DeliveryKind.PULL.word().equals(e.delivery)) {
                throw ApiException.conflict("PULL_ADDRESS", "A pull address is never sent anything: read its events"
                        + " from GET /api/v1/events");
            }
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("object", "test");
            object.put("webhook_id", e.id);
            return events.publishTo(e.id, e.projectId, e.mode, EventTypes.PING, object)
                    .map(ev -> new PingView(ev.id(), "webhook_ping", ev.id(), ev.type(), e.id, e.status));
        }));
    }

    public Uni<ListView<DeliveryView>> deliveries(ApiPrincipal caller, String id, Paging paging) {
        return Panache.withSession(() -> find(caller, id, false))
                .chain(e -> page(DeliveryLog.Query.of(caller.ownerId(), caller.mode()).destination(e.id), paging));
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
        return Panache.withSession(() -> find(caller, webhookId, false))
                .chain(e -> restarts.recover(policy, caller.ownerId(), caller.mode(), e.id, since, until)
                        .map(r -> new RecoveryView("webhook_recovery", e.id, Timestamps.millis(since), Timestamps.millis(until),
                                r.resent(), r.replayed(), Timestamps.millis(r.createdAt()))));
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

    private Uni<WebhookEndpoint> find(ApiPrincipal caller, String id, boolean lock) {
        return endpoints.owned(id, caller.ownerId(), caller.mode(), lock);
    }

    private static String[] validateEvents(List<String> kinds) {
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
        return out.toArray(String[]::new);
    }

    private static String newSecret() {
        return Ids.hex("whsec_", 32);
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
