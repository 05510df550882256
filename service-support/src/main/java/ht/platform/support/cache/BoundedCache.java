package ht.platform.support.cache;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A concurrent map of answers that are cheap to fetch again: once it holds {@code limit} entries it forgets them
 * all before taking the next, so it never grows without bound and needs no eviction order. Expiry, where wanted, is
 * the caller's: it keeps the deadline in the value.
 */
public final class BoundedCache<K, V> {

    private final ConcurrentHashMap<K, V> entries = new ConcurrentHashMap<>();
    private final int limit;

    public BoundedCache(int limit) {
        this.limit = limit;
    }

    public V get(K key) {
        return entries.get(key);
    }

    public void put(K key, V value) {
        if (entries.size() >= limit) {
            entries.clear();
        }
        entries.put(key, value);
    }

    public void clear() {
        entries.clear();
    }
}
