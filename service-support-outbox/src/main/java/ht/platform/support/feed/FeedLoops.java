package ht.platform.support.feed;

import ht.platform.support.health.SchemaPending;
import ht.platform.support.health.SchemaReadiness;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.OutboxWakeup;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;

/**
 * Runs the feed on every replica: while reads are held here, the outbox's notification (any commit that wrote events)
 * wakes the sequencer and a tick every second numbers what a missed notification left; the sequencer's notification
 * wakes the held reads.
 */
@ApplicationScoped
public class FeedLoops {

    @Inject
    Instance<DeliveryPolicy> policies;

    @Inject
    FeedSequencer sequencer;

    @Inject
    FeedWaiters waiters;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    @Readiness
    SchemaReadiness schema;

    @Inject
    MeterRegistry registry;

    void start(@Observes StartupEvent event) {
        for (DeliveryPolicy policy : policies) {
            wakeup.listen(policy.channel(), payload -> {
                if (schema.reached()) {
                    sequencer.committed(policy, waiters);
                }
            });
            wakeup.listen(FeedSequencer.channel(policy), payload -> waiters.signal(policy.schema(), payload));
        }
        Gauge.builder("events_feed_reads_held", waiters, FeedWaiters::held)
                .description("Feed reads held open with wait").register(registry);
    }

    @Scheduled(every = "${platform.feed.tick:1s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    void tick() {
        policies.forEach(policy -> sequencer.ticked(policy, waiters));
    }
}
