package ht.platform.wallet.events;

import ht.platform.support.crypto.SecretBox;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.DeliveryStore;
import ht.platform.support.outbox.PreparedDelivery;
import ht.platform.support.outbox.SendResult;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.model.OutboxEvent;
import ht.platform.wallet.model.WebhookAttempt;
import ht.platform.wallet.model.WebhookDelivery;
import ht.platform.wallet.model.WebhookEndpoint;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookSigner;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The gateway's outbox rules. Claim: due pending deliveries of active addresses, {@code FOR UPDATE SKIP LOCKED},
 * at most one per address at a time (so an address receives its events in order, a held backlog included),
 * leased for longer than the send timeout. Record: one attempt row; success resets the address's failure count;
 * a failure schedules the next try by the source's schedule or abandons the delivery, and the 20th consecutive
 * failure pauses the address (its deliveries are then held, not dropped).
 */
@ApplicationScoped
public class WalletDeliveryStore implements DeliveryStore {

    private static final Logger LOG = Logger.getLogger(WalletDeliveryStore.class);
    public static final String USER_AGENT = "WalletGateway-Webhooks/1.0";

    @Inject
    Clock clock;

    @Inject
    WalletSettings settings;

    @Inject
    WebhookSettings transportSettings;

    @Inject
    SecretBox secretBox;

    private volatile RetrySchedule schedule;

    @Override
    public String name() {
        return "wallet";
    }

    public RetrySchedule schedule() {
        RetrySchedule s = schedule;
        if (s == null) {
            s = RetrySchedule.parse(settings.webhooks().retrySchedule());
            schedule = s;
        }
        return s;
    }

    @Override
    public Uni<List<PreparedDelivery>> claimDue(int limit) {
        Instant now = now();
        OffsetDateTime at = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        Instant leaseUntil = now.plus(transportSettings.lease());
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                        // Each active address with nothing in flight offers its oldest due delivery: one index probe
                        // per address, however long the backlog.
                        "WITH offered AS (SELECT x.id, x.seq FROM wallet.webhook_endpoints e"
                        + " CROSS JOIN LATERAL (SELECT d.id, d.seq FROM wallet.webhook_deliveries d"
                        + "   WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= :now"
                        + "   AND (d.lease_until IS NULL OR d.lease_until <= :now) ORDER BY d.seq LIMIT 1) x"
                        + " WHERE e.status = 'active' AND NOT EXISTS (SELECT 1 FROM wallet.webhook_deliveries b"
                        + "   WHERE b.endpoint_id = e.id AND b.status = 'pending' AND b.lease_until > :now)"
                        + " ORDER BY x.seq LIMIT :limit)"
                        + " SELECT d.id, d.endpoint_id FROM wallet.webhook_deliveries d WHERE d.id IN (SELECT id FROM offered)"
                        + " AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= :now)"
                        + " ORDER BY d.seq FOR UPDATE OF d SKIP LOCKED", Object[].class)
                .setParameter("now", at).setParameter("limit", Math.max(1, limit))
                .getResultList())
                .chain(rows -> {
                    // One per address: the oldest due one; the others wait for the next round.
                    Map<String, String> firstByEndpoint = new LinkedHashMap<>();
                    for (Object[] row : rows) {
                        if (firstByEndpoint.size() >= limit) {
                            break;
                        }
                        firstByEndpoint.putIfAbsent((String) row[1], (String) row[0]);
                    }
                    if (firstByEndpoint.isEmpty()) {
                        return Uni.createFrom().item(List.<PreparedDelivery>of());
                    }
                    List<String> ids = new ArrayList<>(firstByEndpoint.values());
                    return WebhookDelivery.<WebhookDelivery>list("id in ?1 order by seq", ids).chain(deliveries -> {
                        deliveries.forEach(d -> d.leaseUntil = leaseUntil);
                        Set<String> eventIds = deliveries.stream().map(d -> d.eventId).collect(Collectors.toCollection(LinkedHashSet::new));
                        return WebhookEndpoint.<WebhookEndpoint>list("id in ?1", firstByEndpoint.keySet())
                                .chain(endpoints -> OutboxEvent.<OutboxEvent>list("id in ?1", eventIds).map(events -> {
                                    Map<String, WebhookEndpoint> byEndpoint = endpoints.stream()
                                            .collect(Collectors.toMap(e -> e.id, Function.identity()));
                                    Map<String, OutboxEvent> byEvent = events.stream()
                                            .collect(Collectors.toMap(e -> e.id, Function.identity()));
                                    List<PreparedDelivery> out = new ArrayList<>();
                                    for (WebhookDelivery d : deliveries) {
                                        out.add(prepare(d, byEndpoint.get(d.endpointId), byEvent.get(d.eventId), now));
                                    }
                                    return out;
                                }));
                    });
                }));
    }

    /** Signs at claim time: timestamp = now, the stored body byte for byte, both secrets during a rotation. */
    PreparedDelivery prepare(WebhookDelivery d, WebhookEndpoint endpoint, OutboxEvent event, Instant now) {
        List<String> secrets = new ArrayList<>(2);
        secrets.add(secretBox.openText(endpoint.secretSealed, endpoint.id));
        if (endpoint.previousSecretSealed != null && endpoint.previousSecretExpiresAt != null
                && endpoint.previousSecretExpiresAt.isAfter(now)) {
            secrets.add(secretBox.openText(endpoint.previousSecretSealed, endpoint.id));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", USER_AGENT);
        headers.put("X-Gateway-Event", event.type);
        headers.putAll(WebhookSigner.sign(SignatureScheme.GATEWAY, secrets, now.getEpochSecond(), event.id, event.body));
        return new PreparedDelivery(d.id, endpoint.url, headers, event.body, d.attemptCount + 1);
    }

    @Override
    public Uni<Void> recordAttempt(PreparedDelivery delivery, SendResult result) {
        Instant now = now();
        return Panache.withTransaction(() -> WebhookDelivery.<WebhookDelivery>findById(delivery.deliveryId(), LockModeType.PESSIMISTIC_WRITE)
                .chain(d -> {
                    if (d == null || !"pending".equals(d.status)) {
                        return Uni.createFrom().voidItem(); // address deleted meanwhile, or already settled
                    }
                    return WebhookEndpoint.<WebhookEndpoint>findById(d.endpointId, LockModeType.PESSIMISTIC_WRITE).chain(e -> {
                        WebhookAttempt attempt = new WebhookAttempt();
                        attempt.id = Ids.hex("wha_", 12);
                        attempt.deliveryId = d.id;
                        attempt.attemptNumber = d.attemptCount + 1;
                        attempt.attemptedAt = now;
                        attempt.success = result.success();
                        attempt.statusCode = result.statusCode();
                        attempt.latencyMs = result.latencyMillis();
                        attempt.error = truncate(result.error(), 1000);
                        attempt.responseExcerpt = result.responseExcerpt();
                        d.attemptCount++;
                        d.lastAttemptAt = now;
                        d.leaseUntil = null;
                        if (result.success()) {
                            d.status = "delivered";
                            d.deliveredAt = now;
                            d.nextAttemptAt = null;
                            e.consecutiveFailures = 0;
                        } else {
                            d.cycleAttempts++;
                            Optional<Instant> next = schedule().nextAttemptAt(d.cycleAttempts, now);
                            if (next.isPresent()) {
                                d.nextAttemptAt = next.get();
                            } else {
                                d.status = "abandoned";
                                d.nextAttemptAt = null;
                            }
                            e.consecutiveFailures++;
                            if ("active".equals(e.status) && e.consecutiveFailures >= settings.webhooks().pauseAfterFailures()) {
                                e.status = "paused";
                                e.pausedAt = now;
                                LOG.warnf("webhook %s paused after %d consecutive failed attempts", e.id, e.consecutiveFailures);
                            }
                        }
                        return attempt.persist().replaceWithVoid();
                    });
                }));
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
