package ht.platform.support.lifecycle;

import ht.platform.support.feed.FeedWaiters;
import ht.platform.support.outbox.DeliveryRunner;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * A replica's stop on SIGTERM. When the shutdown delay starts (readiness is DOWN from then on), the feed reads held
 * open are answered, so that they do not hold the stop for their whole wait. When the server has stopped taking
 * requests, the delivery loop claims nothing more and the stop waits (at most {@link #SENDS}) until the sends in
 * flight are recorded, so no delivery stays leased to a replica that is gone.
 */
@ApplicationScoped
public class OrderlyStop {

    private static final Logger LOG = Logger.getLogger(OrderlyStop.class);
    static final Duration SENDS = Duration.ofSeconds(10);

    @Inject
    FeedWaiters feedReads;

    @Inject
    DeliveryRunner deliveries;

    void delayStarted(@Observes ShutdownDelayInitiatedEvent event) {
        feedReads.stop();
    }

    void stopping(@Observes @Priority(1) ShutdownEvent event) throws InterruptedException {
        feedReads.stop();
        deliveries.stopClaiming();
        long until = System.nanoTime() + SENDS.toNanos();
        while (!deliveries.idle() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        if (!deliveries.idle()) {
            LOG.warnf("deliveries still in flight after %d s; their leases end on their own", SENDS.toSeconds());
        }
    }
}
