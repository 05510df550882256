package ht.platform.checkout.events;

import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.OutboxWakeup;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wakes the shared delivery runner: at once on NOTIFY after a commit, and every second as the fallback.
 * Publishes the outbox lag (age in seconds of the oldest due, undelivered delivery) as a gauge.
 */
@ApplicationScoped
public class DeliveryLoop {

    @Inject
    DeliveryRunner runner;

    @Inject
    CheckoutDeliveryStore store;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    MeterRegistry registry;

    @Inject
    Clock clock;

    private final AtomicLong lagSeconds = new AtomicLong();

    void start(@Observes StartupEvent event) {
        Gauge.builder("checkout_outbox_lag_seconds", lagSeconds, AtomicLong::get)
                .description("Age of the oldest due webhook delivery not yet delivered").register(registry);
        wakeup.listen(Outbox.CHANNEL, () -> runner.wake(store));
    }

    @Scheduled(every = "1s", delayed = "2s")
    void tick() {
        runner.wake(store);
    }

    @Scheduled(every = "15s", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> measureLag() {
        Instant now = clock.instant();
        return Panache.withSession(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                                "SELECT min(next_attempt_at) FROM checkout.webhook_deliveries WHERE status = 'pending'"
                                        + " AND next_attempt_at <= :now", OffsetDateTime.class)
                        .setParameter("now", OffsetDateTime.ofInstant(now, ZoneOffset.UTC)).getSingleResultOrNull()))
                .invoke(oldest -> lagSeconds.set(oldest == null ? 0 : Math.max(0, Duration.between(oldest.toInstant(), now).toSeconds())))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
