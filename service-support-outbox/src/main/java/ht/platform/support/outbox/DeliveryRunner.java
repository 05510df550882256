package ht.platform.support.outbox;

import ht.platform.support.sql.ReadOnlyEviction;
import ht.platform.support.trace.EventTraces;
import io.opentelemetry.api.trace.Span;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The delivery loop of every outbox. {@link #wake} keeps up to {@code webhooks.concurrency} deliveries in flight,
 * claiming more as soon as there is room, so a slow or hanging receiver holds one slot and never stalls the
 * others; an in-order destination's next delivery comes back with the record of the previous one and goes out at
 * once on the same slot. {@link #drain} delivers until nothing is due (tests and benchmarks).
 */
@ApplicationScoped
public class DeliveryRunner {

    private static final Logger LOG = Logger.getLogger(DeliveryRunner.class);

    private final class Loop {
        final DeliveryPolicy policy;
        final AttemptRecorder recorder;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicBoolean claiming = new AtomicBoolean();
        final AtomicBoolean again = new AtomicBoolean();
        /** The last claim found fewer deliveries due than it had room for. */
        final AtomicBoolean dry = new AtomicBoolean();
        final Counter successes;
        final Counter failures;
        final Timer latency;

        Loop(DeliveryPolicy policy) {
            this.policy = policy;
            this.recorder = new AttemptRecorder(policy, store);
            this.successes = counter(policy, "success");
            this.failures = counter(policy, "failure");
            this.latency = Timer.builder("webhook_delivery_latency").tag("service", policy.name()).register(registry);
        }
    }

    private final Map<String, Loop> loops = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    @Inject
    DeliveryStore store;

    @Inject
    WebhookTransport transport;

    @Inject
    WebhookSettings settings;

    @Inject
    DeliverySigner signer;

    @Inject
    Clock clock;

    /** Absent in the engine's own tests, which put a runner together by hand. */
    @Inject
    ReadOnlyEviction readOnlyEviction;

    @Inject
    MeterRegistry registry;

    @Inject
    EventTraces traces;

    /** Starts claiming and sending in the background; safe to call from anywhere, as often as wanted. */
    public void wake(DeliveryPolicy policy) {
        Loop loop = loop(policy);
        loop.dry.set(false); // a commit or the clock may have made deliveries due
        claim(loop);
    }

    private void claim(Loop loop) {
        if (stopping) {
            return;
        }
        if (!loop.claiming.compareAndSet(false, true)) {
            loop.again.set(true);
            return;
        }
        loop.again.set(false);
        int inFlight = loop.inFlight.get();
        int room = settings.concurrency() - inFlight;
        if (room <= 0 || (inFlight > 0 && room < batch())) {
            loop.claiming.set(false); // a delivery still in flight wakes the loop again when it finishes
            if (loop.again.getAndSet(false) && room > 0) {
                claim(loop);
            }
            return;
        }
        store.claimDue(loop.policy, room).subscribe().with(claimed -> {
            loop.inFlight.addAndGet(claimed.size());
            boolean again = loop.again.getAndSet(false);
            if (claimed.size() < room && !again) {
                loop.dry.set(true);
            }
            loop.claiming.set(false);
            claimed.forEach(d -> lane(loop, d));
            if (claimed.size() == room || again) {
                claim(loop);
            }
        }, e -> {
            loop.claiming.set(false);
            LOG.warnf("claiming %s deliveries failed: %s", loop.policy.name(), e.toString());
            if (readOnlyEviction != null) {
                readOnlyEviction.seen(e);
            }
        });
    }

    /** One slot: this delivery, then the next ones of its destination that come back with its record. */
    private void lane(Loop loop, ClaimedDelivery delivery) {
        deliver(loop, delivery).subscribe().with(next -> {
            loop.inFlight.addAndGet(next.size());
            next.forEach(d -> lane(loop, d));
            finished(loop, !next.isEmpty());
        }, e -> {
            LOG.warnf("recording %s delivery %s failed: %s", loop.policy.name(), delivery.id(), e.toString());
            finished(loop, false);
        });
    }

    /** Claims go out in batches while deliveries are in flight, so a busy loop is not one claim per send. */
    private int batch() {
        return Math.max(1, settings.concurrency() / 4);
    }

    /**
     * Whether the background loop of this outbox holds nothing right now: no claim under way, no send in flight (a
     * send counts until its attempt is recorded). Tests move their clock only when this holds and nothing is due.
     */
    public boolean idle(DeliveryPolicy policy) {
        Loop loop = loop(policy);
        return loop.inFlight.get() == 0 && !loop.claiming.get();
    }

    /** The replica stops: nothing more is claimed; what is in flight is still sent and recorded. */
    public void stopClaiming() {
        stopping = true;
    }

    /** Whether every loop holds nothing: no claim under way, no send waiting for its record. */
    public boolean idle() {
        return loops.values().stream().allMatch(l -> l.inFlight.get() == 0 && !l.claiming.get());
    }

    /** Delivers everything due now, one batch after another, and answers how many attempts were made. */
    public Uni<Integer> drain(DeliveryPolicy policy) {
        return drain(loop(policy), 0);
    }

    private Uni<Integer> drain(Loop loop, int sent) {
        return store.claimDue(loop.policy, settings.concurrency()).chain(claimed -> {
            if (claimed.isEmpty()) {
                return Uni.createFrom().item(sent);
            }
            return all(loop, claimed).chain(n -> drain(loop, sent + n));
        });
    }

    private Uni<Integer> all(Loop loop, List<ClaimedDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Uni<Integer>> lanes = new ArrayList<>(deliveries.size());
        for (ClaimedDelivery d : deliveries) {
            lanes.add(deliver(loop, d).chain(next -> all(loop, next)).map(n -> n + 1)
                    .onFailure().recoverWithItem(1));
        }
        return Uni.join().all(lanes).andFailFast().map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
    }

    private Uni<List<ClaimedDelivery>> deliver(Loop loop, ClaimedDelivery delivery) {
        Span span = traces.attempt(loop.policy.name(), delivery.traceParent(), delivery.eventId(), delivery.eventType(),
                delivery.attemptNumber(), delivery.url());
        Uni<SendResult> sent;
        try {
            PreparedDelivery prepared = prepare(loop.policy, delivery, clock.instant());
            sent = transport.send(prepared.url(), prepared.headers(), prepared.body());
        } catch (DeliverySigner.UnsignableDelivery e) {
            LOG.warnf("%s delivery %s could not be prepared: %s", loop.policy.name(), delivery.id(), e.getMessage());
            sent = Uni.createFrom().item(SendResult.failed("delivery could not be prepared: " + e.getMessage(), 0));
        }
        return sent.invoke(result -> EventTraces.answered(span, result.success(),
                        result.statusCode() == null ? 0 : result.statusCode(), result.error()))
                .onFailure().invoke(e -> EventTraces.answered(span, false, 0, e.toString()))
                .invoke(result -> measure(loop, result))
                .chain(result -> loop.recorder.record(delivery, result));
    }

    /** Signs at send time: timestamp = now, the stored body byte for byte, both secrets during a rotation. */
    PreparedDelivery prepare(DeliveryPolicy policy, ClaimedDelivery d, Instant now) {
        if (d.url() == null || d.url().isBlank()) {
            throw new DeliverySigner.UnsignableDelivery("the destination has no webhook address");
        }
        return new PreparedDelivery(d.id(), d.url(), signer.headers(policy, d, now), d.body(), d.attemptNumber());
    }

    private Loop loop(DeliveryPolicy policy) {
        return loops.computeIfAbsent(policy.name(), n -> new Loop(policy));
    }

    /**
     * A slot is free. An in-order lane that goes on with its destination's next delivery changed nothing another claim
     * could find, so while the last claim found nothing more due it claims nothing (a commit or the tick wakes it).
     */
    private void finished(Loop loop, boolean laneGoesOn) {
        loop.inFlight.decrementAndGet();
        if (!laneGoesOn || !loop.dry.get()) {
            claim(loop);
        }
    }

    private void measure(Loop loop, SendResult result) {
        (result.success() ? loop.successes : loop.failures).increment();
        loop.latency.record(result.latencyMillis(), TimeUnit.MILLISECONDS);
    }

    private Counter counter(DeliveryPolicy policy, String outcome) {
        return Counter.builder("webhook_deliveries").tag("service", policy.name()).tag("outcome", outcome).register(registry);
    }
}
