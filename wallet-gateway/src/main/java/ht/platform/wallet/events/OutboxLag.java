package ht.platform.wallet.events;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** Metrics of the outbox: age of the oldest due delivery to an active address, and deliveries waiting. */
@ApplicationScoped
public class OutboxLag {

    private final AtomicLong lagSeconds = new AtomicLong();
    private final AtomicLong due = new AtomicLong();

    @Inject
    MeterRegistry registry;

    @Inject
    Vertx vertx;

    @Inject
    Clock clock;

    void register(@Observes StartupEvent event) {
        Gauge.builder("webhook_outbox_lag_seconds", lagSeconds, AtomicLong::get).tag("service", "wallet")
                .description("Age of the oldest due webhook delivery to an active address").register(registry);
        Gauge.builder("webhook_outbox_due", due, AtomicLong::get).tag("service", "wallet")
                .description("Webhook deliveries due now to active addresses").register(registry);
    }

    @Scheduled(every = "15s", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> measure() {
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        return Uni.createFrom().<Object[]>emitter(emitter -> {
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(v -> Panache.withSession(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                            "SELECT count(*), coalesce(extract(epoch FROM (:now - min(d.next_attempt_at))), 0)"
                            + " FROM wallet.webhook_deliveries d JOIN wallet.webhook_endpoints e ON e.id = d.endpoint_id"
                            + " WHERE d.status = 'pending' AND e.status = 'active' AND d.next_attempt_at <= :now", Object[].class)
                    .setParameter("now", now).getSingleResult()))
                    .subscribe().with(emitter::complete, emitter::fail));
        }).invoke(row -> {
            due.set(((Number) row[0]).longValue());
            lagSeconds.set(Math.max(0, ((Number) row[1]).longValue()));
        }).onFailure().recoverWithNull().replaceWithVoid();
    }
}
