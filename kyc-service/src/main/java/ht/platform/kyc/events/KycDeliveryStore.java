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

/** The operator's resend of one kyc delivery. */
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
}
