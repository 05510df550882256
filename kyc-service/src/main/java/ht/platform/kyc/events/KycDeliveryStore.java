package ht.platform.kyc.events;

import ht.platform.support.outbox.OutboxWakeup;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** The operator's view of kyc deliveries: the latest ones of an application, and the resend of one. */
@ApplicationScoped
public class KycDeliveryStore {

    @Inject
    Clock clock;

    @Inject
    OutboxWakeup wakeup;

    /** Operator resend of a dead (or delivered) delivery: a fresh schedule, due now. */
    public Uni<Integer> resend(String deliveryId) {
        OffsetDateTime at = clock.instant().truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "UPDATE kyc.deliveries SET status = 'pending', attempts = 0, next_attempt_at = :now, lease_until = NULL, dead_at = NULL"
                                + " WHERE id = :d AND status IN ('dead', 'delivered')")
                .setParameter("now", at).setParameter("d", deliveryId).executeUpdate()
                .call(n -> n == 1 ? wakeup.notifyInTransaction(s, KycDeliveryPolicy.CHANNEL) : Uni.createFrom().voidItem())));
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
