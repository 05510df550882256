package ht.platform.support.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Token buckets by key (an application, a client address), per replica, on Bucket4j read from the injected clock:
 * {@code burst} tokens at most, refilled greedily at {@code perSecond}. {@link #take} answers 0 when a token was taken,
 * otherwise the whole seconds to wait (for a {@code Retry-After}). At most {@code keys} buckets are kept: past that the
 * least recently used start full again, which only ever lets a client through early, never locks one out.
 */
public final class TokenBuckets {

    private final Cache<String, Bucket> buckets;
    private final TimeMeter time;
    private final Counter refusals;

    public TokenBuckets(Clock clock, int keys) {
        this(clock, keys, null);
    }

    /** {@code refusals}, when given, counts every token refused (the rate-limit refusals a service meters). */
    public TokenBuckets(Clock clock, int keys, Counter refusals) {
        this.refusals = refusals;
        this.time = new ClockTime(clock);
        this.buckets = Caffeine.newBuilder().maximumSize(keys).build();
    }

    /** The counter of one limit's refusals, {@code rate_limit_refusals_total{limit}}: the same metric for every limit. */
    public static Counter refusals(MeterRegistry registry, String limit) {
        return Counter.builder("rate_limit_refusals").tag("limit", limit)
                .description("Requests refused by a rate limit (token bucket), by limit").register(registry);
    }

    public long take(String key, double perSecond, int burst) {
        Bucket bucket = buckets.get(key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(burst).refillGreedy(burst, Duration.ofNanos(Math.round(burst / perSecond * 1e9))))
                .withCustomTimePrecision(time)
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return 0;
        }
        if (refusals != null) {
            refusals.increment();
        }
        return Math.max(1, (long) Math.ceil(probe.getNanosToWaitForRefill() / 1e9));
    }

    /** Puts back a token {@link #take} took for {@code key} (work that turned out not to count), up to the burst. */
    public void giveBack(String key) {
        Bucket bucket = buckets.getIfPresent(key);
        if (bucket != null) {
            bucket.addTokens(1);
        }
    }

    /**
     * The injected clock as Bucket4j's time: it only moves forward by the clock's forward steps, so a clock set back
     * (a test's) refills nothing and starves nothing.
     */
    private static final class ClockTime implements TimeMeter {

        private final Clock clock;
        private Instant last;
        private long nanos;

        ClockTime(Clock clock) {
            this.clock = clock;
            this.last = clock.instant();
        }

        @Override
        public synchronized long currentTimeNanos() {
            Instant now = clock.instant();
            nanos += Math.max(0, Duration.between(last, now).toNanos());
            last = now;
            return nanos;
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }
}
