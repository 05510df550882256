package ht.platform.support.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The delivery loop shared by the three services. {@link #wake} keeps up to {@code webhooks.concurrency}
 * deliveries in flight, claiming more as soon as one finishes, so a slow or hanging receiver holds one slot
 * and never stalls the others. {@link #drain} delivers until nothing is due (used by tests and benchmarks).
 */
@ApplicationScoped
public class DeliveryRunner {

    private static final Logger LOG = Logger.getLogger(DeliveryRunner.class);

    private final class Loop {
        final DeliveryStore store;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicBoolean claiming = new AtomicBoolean();
        final AtomicBoolean again = new AtomicBoolean();

        Loop(DeliveryStore store) {
            this.store = store;
        }
    }

    private final Map<String, Loop> loops = new ConcurrentHashMap<>();

    @Inject
    Vertx vertx;

    @Inject
    WebhookTransport transport;

    @Inject
    WebhookSettings settings;

    @Inject
    MeterRegistry registry;

    /** Starts claiming and sending in the background; safe to call from anywhere, as often as wanted. */
    public void wake(DeliveryStore store) {
        Loop loop = loops.computeIfAbsent(store.name(), n -> new Loop(store));
        if (!loop.claiming.compareAndSet(false, true)) {
            loop.again.set(true);
            return;
        }
        loop.again.set(false);
        int inFlight = loop.inFlight.get();
        int room = settings.concurrency() - inFlight;
        if (room <= 0 || (inFlight > 0 && room < batch())) {
            loop.claiming.set(false); // a delivery still in flight wakes the loop again when it finishes
            return;
        }
        FreshContext.run(vertx, () -> store.claimDue(room)).subscribe().with(claimed -> {
            loop.inFlight.addAndGet(claimed.size());
            loop.claiming.set(false);
            for (PreparedDelivery delivery : claimed) {
                deliver(store, delivery).subscribe().with(
                        v -> finished(loop),
                        e -> {
                            LOG.warnf("recording delivery %s failed: %s", delivery.deliveryId(), e.toString());
                            finished(loop);
                        });
            }
            if (claimed.size() == room || loop.again.getAndSet(false)) {
                wake(store);
            }
        }, e -> {
            loop.claiming.set(false);
            LOG.warnf("claiming %s deliveries failed: %s", store.name(), e.toString());
        });
    }

    /** Claims go out in batches while deliveries are in flight, so a busy loop is not one claim per send. */
    private int batch() {
        return Math.max(1, settings.concurrency() / 4);
    }

    /** Delivers everything due now, one batch after another, and answers how many attempts were made. */
    public Uni<Integer> drain(DeliveryStore store) {
        return drain(store, 0);
    }

    private Uni<Integer> drain(DeliveryStore store, int sent) {
        return FreshContext.run(vertx, () -> store.claimDue(settings.concurrency())).chain(claimed -> {
            if (claimed.isEmpty()) {
                return Uni.createFrom().item(sent);
            }
            List<Uni<Void>> sends = claimed.stream().map(d -> deliver(store, d)).toList();
            return Uni.join().all(sends).andCollectFailures().chain(v -> drain(store, sent + claimed.size()));
        });
    }

    private Uni<Void> deliver(DeliveryStore store, PreparedDelivery delivery) {
        return transport.send(delivery.url(), delivery.headers(), delivery.body())
                .invoke(result -> measure(store, result))
                .chain(result -> FreshContext.run(vertx, () -> store.recordAttempt(delivery, result)));
    }

    private void finished(Loop loop) {
        loop.inFlight.decrementAndGet();
        wake(loop.store);
    }

    private void measure(DeliveryStore store, SendResult result) {
        String outcome = result.success() ? "success" : "failure";
        Counter.builder("webhook_deliveries").tag("service", store.name()).tag("outcome", outcome)
                .register(registry).increment();
        Timer.builder("webhook_delivery_latency").tag("service", store.name())
                .register(registry).record(Duration.ofMillis(result.latencyMillis()));
    }
}
