package ht.platform.support.limits;

import io.smallrye.mutiny.Uni;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Coalesces concurrent work on the same key: while one call for a key is under way, every other caller for that key
 * gets its outcome instead of starting the work again (so a burst of returns for one MonCash transaction is one call
 * to MonCash). The entry is gone once the work ends; nothing is cached after.
 */
public final class InFlight<K, V> {

    private final ConcurrentHashMap<K, Uni<V>> running = new ConcurrentHashMap<>();

    public Uni<V> join(K key, Supplier<Uni<V>> work) {
        return Uni.createFrom().deferred(() -> running.computeIfAbsent(key, k -> Uni.createFrom().<V>deferred(work::get)
                .onTermination().invoke(() -> running.remove(k))
                .memoize().indefinitely()));
    }

    /** How many keys have work under way (for tests and gauges). */
    public int size() {
        return running.size();
    }
}
