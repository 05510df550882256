package ht.platform.checkout.events;

import ht.platform.checkout.config.CheckoutConfig;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.outbox.DeliveryStore;
import ht.platform.support.outbox.PreparedDelivery;
import ht.platform.support.outbox.SendResult;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookSigner;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checkout's outbox rules: claims due deliveries with FOR UPDATE SKIP LOCKED and a lease, signs them
 * (Checkout-Timestamp / Checkout-Signature over "&lt;timestamp&gt;.&lt;raw body&gt;" with the endpoint's secret),
 * records every attempt and schedules retries (1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h), then the dead letter.
 */
@ApplicationScoped
public class CheckoutDeliveryStore implements DeliveryStore {

    @Inject
    Clock clock;

    @Inject
    SecretBox secretBox;

    @Inject
    WebhookSettings settings;

    @Inject
    CheckoutConfig config;

    RetrySchedule schedule;

    @PostConstruct
    void init() {
        schedule = RetrySchedule.parse(config.retrySchedule());
    }

    public RetrySchedule schedule() {
        return schedule;
    }

    @Override
    public String name() {
        return "checkout";
    }

    @Override
    public Uni<List<PreparedDelivery>> claimDue(int limit) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        // Each enabled endpoint offers its oldest due deliveries, fewer by those it has in flight,
                        // so an endpoint that hangs holds a bounded share of the sending slots.
                        "WITH busy AS (SELECT endpoint_id, count(*) AS n FROM checkout.webhook_deliveries"
                                + " WHERE status = 'pending' AND lease_until >= :now GROUP BY endpoint_id),"
                                + " offered AS (SELECT x.id, x.next_attempt_at FROM checkout.webhook_endpoints e"
                                + " LEFT JOIN busy b ON b.endpoint_id = e.id"
                                + " CROSS JOIN LATERAL (SELECT d.id, d.next_attempt_at FROM checkout.webhook_deliveries d"
                                + "   WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= :now"
                                + "   AND (d.lease_until IS NULL OR d.lease_until < :now)"
                                + "   ORDER BY d.next_attempt_at LIMIT GREATEST(:perEndpoint - COALESCE(b.n, 0), 0)) x"
                                + " WHERE e.status = 'enabled' ORDER BY x.next_attempt_at LIMIT :limit),"
                                + " due AS (SELECT d.id FROM checkout.webhook_deliveries d WHERE d.id IN (SELECT id FROM offered)"
                                + " AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < :now)"
                                + " FOR UPDATE SKIP LOCKED)"
                                + " UPDATE checkout.webhook_deliveries d SET lease_until = :lease"
                                + " FROM due, checkout.events ev, checkout.webhook_endpoints e"
                                + " WHERE d.id = due.id AND ev.id = d.event_id AND e.id = d.endpoint_id"
                                + " RETURNING d.id, d.failed_attempts, ev.id, ev.type, ev.payload, e.id, e.url, e.secret_sealed",
                        Object[].class)
                .setParameter("now", at(now)).setParameter("limit", limit)
                .setParameter("perEndpoint", settings.maxInFlightPerDestination())
                .setParameter("lease", at(now.plus(settings.lease())))
                .getResultList()))
                .map(rows -> {
                    List<PreparedDelivery> out = new ArrayList<>(rows.size());
                    long timestamp = clock.instant().getEpochSecond();
                    for (Object[] row : rows) {
                        String eventId = (String) row[2];
                        byte[] body = ((String) row[4]).getBytes(StandardCharsets.UTF_8);
                        String secret = secretBox.openText((String) row[7], (String) row[5]);
                        Map<String, String> headers = new LinkedHashMap<>();
                        headers.put("Checkout-Event-Id", eventId);
                        headers.put("Checkout-Event-Type", (String) row[3]);
                        headers.putAll(WebhookSigner.sign(SignatureScheme.CHECKOUT, List.of(secret), timestamp, eventId, body));
                        headers.put("User-Agent", settings.userAgent());
                        out.add(new PreparedDelivery((String) row[0], (String) row[6], headers, body,
                                ((Number) row[1]).intValue() + 1));
                    }
                    return out;
                });
    }

    @Override
    public Uni<Void> recordAttempt(PreparedDelivery delivery, SendResult result) {
        Instant now = clock.instant();
        Optional<Duration> retry = result.success() ? Optional.empty() : schedule.delayAfterFailedAttempt(delivery.attemptNumber());
        String status = result.success() ? "succeeded" : retry.isPresent() ? "pending" : "dead";
        String error = result.error() == null ? null : result.error().length() > 500 ? result.error().substring(0, 500) : result.error();
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                                "INSERT INTO checkout.webhook_attempts (delivery_id, attempt_number, attempted_at, success,"
                                        + " status_code, latency_ms, error, response_excerpt)"
                                        + " SELECT CAST(:id AS text), COALESCE(MAX(attempt_number), 0) + 1, CAST(:now AS timestamptz), CAST(:success AS boolean),"
                                        + " CAST(:code AS integer), CAST(:latency AS bigint), CAST(:error AS text), CAST(:excerpt AS text)"
                                        + " FROM checkout.webhook_attempts WHERE delivery_id = :id")
                        .setParameter("id", delivery.deliveryId()).setParameter("now", at(now))
                        .setParameter("success", result.success()).setParameter("code", result.statusCode())
                        .setParameter("latency", result.latencyMillis()).setParameter("error", error)
                        .setParameter("excerpt", result.responseExcerpt())
                        .executeUpdate()
                        .chain(() -> s.createNativeQuery("UPDATE checkout.webhook_deliveries SET status = :status,"
                                        + " failed_attempts = failed_attempts + :failed, next_attempt_at = CASE WHEN :hasNext THEN CAST(:next AS timestamptz) ELSE NULL END, lease_until = NULL,"
                                        + " updated_at = :now WHERE id = :id")
                                .setParameter("status", status).setParameter("failed", result.success() ? 0 : 1)
                                .setParameter("hasNext", retry.isPresent())
                                .setParameter("next", at(now.plus(retry.orElse(Duration.ZERO))))
                                .setParameter("now", at(now)).setParameter("id", delivery.deliveryId())
                                .executeUpdate())))
                .replaceWithVoid();
    }

    static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
