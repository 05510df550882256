package ht.platform.support.feed;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The feed reads held open with {@code wait}, by outbox, owner and mode: a sequencer's notification completes the
 * ones it names (each then reads again), nothing polls. A reader registers before it reads, so an event numbered
 * between its read and its wait still wakes it.
 */
@ApplicationScoped
public class FeedWaiters {

    private final Map<String, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    /** One held read; {@link #until} completes on a notification naming its key, or when the time is up. */
    public final class Waiter {
        private final String key;
        private final CompletableFuture<Void> signal = new CompletableFuture<>();

        private Waiter(String key) {
            this.key = key;
        }

        /** Completes with true when woken, false when {@code max} passed first; the waiter is gone either way. */
        public Uni<Boolean> until(Duration max) {
            if (stopping) {
                cancel();
                return Uni.createFrom().item(false);
            }
            return Uni.createFrom().completionStage(signal).replaceWith(true)
                    .ifNoItem().after(max).recoverWithItem(false)
                    .onTermination().invoke(this::cancel);
        }

        public void cancel() {
            Set<Waiter> set = waiting.get(key);
            if (set != null) {
                set.remove(this);
            }
        }
    }

    public Waiter register(String schema, String owner, String mode) {
        String key = key(schema, owner + ' ' + mode);
        Waiter waiter = new Waiter(key);
        waiting.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(waiter);
        return waiter;
    }

    /** A sequencer's notification on {@code <schema>_feed}: comma-separated {@code owner mode} pairs, or {@code *}. */
    public void signal(String schema, String payload) {
        if (payload.equals("*") || payload.isEmpty()) { // empty: the listening connection (re)connected
            String prefix = schema + '|';
            waiting.forEach((key, set) -> {
                if (key.startsWith(prefix)) {
                    wake(set);
                }
            });
            return;
        }
        for (String pair : payload.split(",")) {
            Set<Waiter> set = waiting.get(key(schema, pair));
            if (set != null) {
                wake(set);
            }
        }
    }

    /** The replica stops: every held read is answered now with what it has, and no read is held any more. */
    public void stop() {
        stopping = true;
        waiting.values().forEach(FeedWaiters::wake);
    }

    /** Reads held open now (a gauge and tests). */
    public int held() {
        return waiting.values().stream().mapToInt(Set::size).sum();
    }

    private static void wake(Set<Waiter> set) {
        set.forEach(w -> w.signal.complete(null));
    }

    private static String key(String schema, String ownerAndMode) {
        return schema + '|' + ownerAndMode;
    }
}
