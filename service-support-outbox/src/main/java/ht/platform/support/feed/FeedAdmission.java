package ht.platform.support.feed;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import java.util.List;

import ht.platform.support.errors.ApiException;
import ht.platform.support.limits.AsyncPermits;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * What one replica lets the feed take. Reads in flight (held or not) are counted per API key, per owner and in all:
 * past a limit a read is 429 {@code TOO_MANY_FEED_READS} with {@code Retry-After} before it costs a query. The feed's
 * queries share {@link #querying} permits, well below the connection pool's size, queued in arrival order: however
 * many reads arrive, the rest of the service keeps most of its connections. A held read holds no permit.
 */
@ApplicationScoped
@Startup // its metrics exist from the start, at 0
public class FeedAdmission {

    static final String RETRY_AFTER_SECONDS = "2";

    /** One admitted read: {@link #close} once it is answered (idempotent). */
    public final class Ticket implements AutoCloseable {
        private final String key;
        private final String owner;
        private boolean closed;

        private Ticket(String key, String owner) {
            this.key = key;
            this.owner = owner;
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                decrement(byKey, key);
                decrement(byOwner, owner);
                total.decrementAndGet();
            }
        }
    }

    private final FeedSettings settings;
    private final AsyncPermits permits;
    private final Map<String, AtomicInteger> byKey = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> byOwner = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();

    /** Absent in the tests that put an admission together by hand. */
    @Inject
    MeterRegistry registry;

    /** {@code events_feed_refusals_total{limit}}: the 429s, by the limit that refused (key, owner, replica). */
    @PostConstruct
    void meter() {
        for (String limit : List.of("key", "owner", "replica")) {
            refusals.put(limit, Counter.builder("events_feed_refusals").tag("limit", limit)
                    .description("Event feed reads refused with 429, by the limit reached").register(registry));
        }
    }

    @Inject
    public FeedAdmission(FeedSettings settings,
                         @ConfigProperty(name = "quarkus.datasource.reactive.max-size", defaultValue = "20") int poolSize) {
        this.settings = settings;
        // never more than half the pool, whatever is configured
        this.permits = new AsyncPermits(Math.max(1, Math.min(settings.limits().queries(), poolSize / 2)));
    }

    /** Counts a read of {@code key} (an API key's id) for {@code owner}; 429 past a limit, counting nothing. */
    public Ticket admit(String key, String owner) {
        FeedSettings.Limits limits = settings.limits();
        if (!take(byKey, key, limits.perKey())) {
            throw tooMany("key", "this API key", limits.perKey());
        }
        if (!take(byOwner, owner, limits.perOwner())) {
            decrement(byKey, key);
            throw tooMany("owner", "your account", limits.perOwner());
        }
        if (total.incrementAndGet() > limits.perReplica()) {
            total.decrementAndGet();
            decrement(byKey, key);
            decrement(byOwner, owner);
            throw tooMany("replica", "this server", limits.perReplica());
        }
        return new Ticket(key, owner);
    }

    /**
     * The 429 {@link #admit} would answer now for {@code key} of {@code owner}, counting nothing; null while there is
     * room (then {@link #admit} still decides).
     */
    public ApiException refusalNow(String key, String owner) {
        FeedSettings.Limits limits = settings.limits();
        if (count(byKey, key) >= limits.perKey()) {
            return tooMany("key", "this API key", limits.perKey());
        }
        if (count(byOwner, owner) >= limits.perOwner()) {
            return tooMany("owner", "your account", limits.perOwner());
        }
        return total.get() >= limits.perReplica() ? tooMany("replica", "this server", limits.perReplica()) : null;
    }

    /** Runs one piece of the feed's database work under the feed's share of the pool. */
    public <T> Uni<T> querying(Supplier<Uni<T>> work) {
        return permits.run(work);
    }

    /** Reads admitted now, and queries running and queued (tests and gauges). */
    public int reads() {
        return total.get();
    }

    public AsyncPermits permits() {
        return permits;
    }

    private static boolean take(Map<String, AtomicInteger> counts, String id, int limit) {
        boolean[] taken = {false};
        counts.compute(id, (k, n) -> {
            AtomicInteger c = n == null ? new AtomicInteger() : n;
            if (c.get() < limit) {
                c.incrementAndGet();
                taken[0] = true;
            }
            return c.get() == 0 ? null : c;
        });
        return taken[0];
    }

    private static int count(Map<String, AtomicInteger> counts, String id) {
        AtomicInteger n = counts.get(id);
        return n == null ? 0 : n.get();
    }

    private static void decrement(Map<String, AtomicInteger> counts, String id) {
        counts.computeIfPresent(id, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    private ApiException tooMany(String which, String whose, int limit) {
        Counter refused = refusals.get(which);
        if (refused != null) {
            refused.increment();
        }
        return new ApiException(429, "TOO_MANY_FEED_READS", "At most " + limit + " feed reads at once for " + whose
                + " (held ones included): wait for one to answer, or read with a single follower per address",
                null, Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }
}
