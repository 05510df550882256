package ht.platform.support.outbox;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records attempts as they finish, many in one statement: while one write is under way the next outcomes queue
 * up and go together in the following one (a lone attempt is written at once). A batch that the database refuses
 * is written again one attempt at a time, and an attempt refused alone is stored without the receiver's answer,
 * so one odd answer never holds up the others.
 */
final class AttemptRecorder {

    private static final Logger LOG = Logger.getLogger(AttemptRecorder.class);
    private static final int BATCH = 256;

    private record Waiting(DeliveryStore.Outcome outcome, UniEmitter<? super List<ClaimedDelivery>> emitter) { }

    private final DeliveryPolicy policy;
    private final DeliveryStore store;
    private final Queue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    AttemptRecorder(DeliveryPolicy policy, DeliveryStore store) {
        this.policy = policy;
        this.store = store;
    }

    /** Answers, once written, the deliveries claimed next for the same destination (in-order lanes). */
    Uni<List<ClaimedDelivery>> record(ClaimedDelivery delivery, SendResult result) {
        return Uni.createFrom().emitter(emitter -> {
            queue.add(new Waiting(new DeliveryStore.Outcome(delivery, result), emitter));
            flush();
        });
    }

    private void flush() {
        if (!writing.compareAndSet(false, true)) {
            return;
        }
        List<Waiting> batch = new ArrayList<>();
        for (Waiting w; batch.size() < BATCH && (w = queue.poll()) != null; ) {
            batch.add(w);
        }
        if (batch.isEmpty()) {
            writing.set(false);
            if (!queue.isEmpty()) {
                flush();
            }
            return;
        }
        write(batch).subscribe().with(v -> next(), e -> next());
    }

    private void next() {
        writing.set(false);
        flush();
    }

    private Uni<Void> write(List<Waiting> batch) {
        return store.record(policy, batch.stream().map(Waiting::outcome).toList())
                .invoke(claimed -> hand(batch, claimed))
                .replaceWithVoid()
                .onFailure().recoverWithUni(e -> batch.size() > 1 ? alone(batch, 0) : stripped(batch.get(0), e));
    }

    private Uni<Void> alone(List<Waiting> batch, int i) {
        if (i == batch.size()) {
            return Uni.createFrom().voidItem();
        }
        return write(List.of(batch.get(i))).chain(() -> alone(batch, i + 1));
    }

    private Uni<Void> stripped(Waiting w, Throwable cause) {
        SendResult r = w.outcome().result();
        String error = (r.error() == null ? "" : r.error() + "; ") + "the receiver's answer could not be stored";
        SendResult plain = new SendResult(r.success(), r.statusCode(), r.latencyMillis(), error, null);
        LOG.warnf("recording an attempt of %s delivery %s failed (%s); recording it without the answer",
                policy.name(), w.outcome().delivery().id(), cause.toString());
        return store.record(policy, List.of(new DeliveryStore.Outcome(w.outcome().delivery(), plain)))
                .invoke(claimed -> hand(List.of(w), claimed))
                .replaceWithVoid()
                .onFailure().recoverWithItem(e -> {
                    w.emitter().fail(e);
                    return null;
                });
    }

    /** Each next delivery goes to the lane of the destination whose attempt was just recorded. */
    private static void hand(List<Waiting> batch, List<ClaimedDelivery> claimed) {
        Map<String, List<ClaimedDelivery>> byDestination = new HashMap<>();
        for (ClaimedDelivery d : claimed) {
            byDestination.computeIfAbsent(d.destinationId(), k -> new ArrayList<>()).add(d);
        }
        List<List<ClaimedDelivery>> lanes = new ArrayList<>(batch.size());
        for (Waiting w : batch) {
            List<ClaimedDelivery> mine = byDestination.remove(w.outcome().delivery().destinationId());
            lanes.add(mine == null ? new ArrayList<>() : mine);
        }
        byDestination.values().forEach(lanes.get(0)::addAll); // never leave a leased delivery without a sender
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).emitter().complete(lanes.get(i));
        }
    }
}
