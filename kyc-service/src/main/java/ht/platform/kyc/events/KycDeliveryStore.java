package ht.platform.kyc.events;

import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.service.ApplicationService;
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
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kyc outbox: claims due deliveries with FOR UPDATE SKIP LOCKED and a lease, signs them (Kyc-Signature,
 * both secrets during a rotation), and records each attempt with the retry schedule 1m, 5m, 30m, 2h, 6h,
 * 12h, 24h, 24h; after the last failure the delivery is dead (visible and resendable by the operator).
 */
@ApplicationScoped
public class KycDeliveryStore implements DeliveryStore {

    @Inject
    Clock clock;

    @Inject
    KycSettings settings;

    @Inject
    WebhookSettings webhookSettings;

    @Inject
    ApplicationService applications;

    private RetrySchedule schedule;

    @PostConstruct
    void init() {
        schedule = RetrySchedule.parse(settings.webhooks().retrySchedule());
    }

    public RetrySchedule schedule() {
        return schedule;
    }

    @Override
    public String name() {
        return "kyc";
    }

    @Override
    public Uni<List<PreparedDelivery>> claimDue(int limit) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        // Each application offers its oldest due deliveries, fewer by those it has in flight, so a
                        // webhook_url that hangs holds a bounded share of the sending slots.
                        "WITH busy AS (SELECT application_id, count(*) AS n FROM kyc.deliveries"
                                + " WHERE status = 'pending' AND lease_until >= :now GROUP BY application_id),"
                                + " offered AS (SELECT x.id, x.next_attempt_at FROM (SELECT DISTINCT application_id FROM kyc.deliveries"
                                + "   WHERE status = 'pending' AND next_attempt_at <= :now) a"
                                + " LEFT JOIN busy b ON b.application_id = a.application_id"
                                + " CROSS JOIN LATERAL (SELECT d.id, d.next_attempt_at FROM kyc.deliveries d"
                                + "   WHERE d.application_id = a.application_id AND d.status = 'pending' AND d.next_attempt_at <= :now"
                                + "   AND (d.lease_until IS NULL OR d.lease_until < :now)"
                                + "   ORDER BY d.next_attempt_at LIMIT GREATEST(:perApplication - COALESCE(b.n, 0), 0)) x"
                                + " ORDER BY x.next_attempt_at LIMIT :limit)"
                                + " UPDATE kyc.deliveries d SET lease_until = :lease FROM (SELECT id FROM kyc.deliveries"
                                + " WHERE id IN (SELECT id FROM offered) AND status = 'pending'"
                                + " AND (lease_until IS NULL OR lease_until < :now) FOR UPDATE SKIP LOCKED) due, kyc.events e"
                                + " WHERE d.id = due.id AND e.id = d.event_id RETURNING d.id, d.event_id, d.attempts, e.payload, d.application_id, e.mode",
                        Object[].class)
                .setParameter("lease", at.plus(webhookSettings.lease())).setParameter("now", at).setParameter("limit", limit)
                .setParameter("perApplication", webhookSettings.maxInFlightPerDestination())
                .getResultList()
                .chain(rows -> {
                    Uni<List<PreparedDelivery>> chain = Uni.createFrom().item(new ArrayList<>());
                    for (Object[] row : rows) {
                        chain = chain.chain(list -> Application.<Application>findById((String) row[4]).map(app -> {
                            byte[] body = ((String) row[3]).getBytes(StandardCharsets.UTF_8);
                            Map<String, String> headers = new LinkedHashMap<>();
                            headers.put("Content-Type", "application/json");
                            headers.put("Kyc-Event-Id", (String) row[1]);
                            // test and live are apart: each mode's events go to its own address, signed with its own secret
                            String mode = (String) row[5];
                            headers.putAll(WebhookSigner.sign(SignatureScheme.KYC, applications.signingSecrets(app, mode, now),
                                    now.getEpochSecond(), (String) row[1], body));
                            String url = app.webhookUrl(mode);
                            list.add(new PreparedDelivery((String) row[0], url == null ? "" : url, headers, body,
                                    ((Number) row[2]).intValue() + 1));
                            return list;
                        }));
                    }
                    return chain;
                })));
    }

    @Override
    public Uni<Void> recordAttempt(PreparedDelivery delivery, SendResult result) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        Optional<java.time.Duration> next = result.success() ? Optional.empty() : schedule.delayAfterFailedAttempt(delivery.attemptNumber());
        String status = result.success() ? "delivered" : next.isPresent() ? "pending" : "dead";
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "INSERT INTO kyc.delivery_attempts (delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms,"
                                + " error, response_excerpt) VALUES (:d, :n, :at, :url, :ok, :code, :ms, :err, :resp)")
                .setParameter("d", delivery.deliveryId()).setParameter("n", delivery.attemptNumber()).setParameter("at", at)
                .setParameter("url", delivery.url()).setParameter("ok", result.success()).setParameter("code", result.statusCode())
                .setParameter("ms", result.latencyMillis()).setParameter("err", result.error()).setParameter("resp", result.responseExcerpt())
                .executeUpdate()
                .chain(() -> s.createNativeQuery("UPDATE kyc.deliveries SET attempts = :n, status = :status, lease_until = NULL,"
                                + " next_attempt_at = :next, last_status = :code, last_error = :err,"
                                + " delivered_at = CASE WHEN :ok THEN CAST(:at AS timestamptz) ELSE delivered_at END,"
                                + " dead_at = CASE WHEN :dead THEN CAST(:at AS timestamptz) ELSE dead_at END WHERE id = :d")
                        .setParameter("n", delivery.attemptNumber()).setParameter("status", status)
                        .setParameter("next", next.map(d -> at.plus(d)).orElse(null)).setParameter("code", result.statusCode())
                        .setParameter("err", result.error()).setParameter("ok", result.success()).setParameter("at", at)
                        .setParameter("dead", "dead".equals(status)).setParameter("d", delivery.deliveryId())
                        .executeUpdate()))).replaceWithVoid();
    }

    /** Operator resend of a dead (or delivered) delivery: a fresh schedule, due now. */
    public Uni<Integer> resend(String deliveryId) {
        OffsetDateTime at = clock.instant().truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "UPDATE kyc.deliveries SET status = 'pending', attempts = 0, next_attempt_at = :now, lease_until = NULL, dead_at = NULL"
                                + " WHERE id = :d AND status IN ('dead', 'delivered')")
                .setParameter("now", at).setParameter("d", deliveryId).executeUpdate()
                .call(n -> n == 1 ? s.createNativeQuery("NOTIFY " + EventOutbox.CHANNEL).executeUpdate() : Uni.createFrom().item(0))));
    }

    public Uni<List<Object[]>> list(String applicationId, String status) {
        return Panache.withSession(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.created_at,"
                                + " d.delivered_at, d.dead_at FROM kyc.deliveries d JOIN kyc.events e ON e.id = d.event_id"
                                + " WHERE d.application_id = :app AND (CAST(:status AS text) IS NULL OR d.status = :status)"
                                + " ORDER BY d.created_at DESC LIMIT 100", Object[].class)
                .setParameter("app", applicationId).setParameter("status", status).getResultList()));
    }
}
