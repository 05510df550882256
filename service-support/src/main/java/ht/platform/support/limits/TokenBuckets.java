package ht.platform.support.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Token buckets by key (an application, a client address), read from the injected clock, per replica: {@code burst}
 * tokens at most, refilled at {@code perSecond}. {@link #take} answers 0 when a token was taken, otherwise the whole
 * seconds to wait (for a {@code Retry-After}). At most {@code keys} buckets are kept: past that the least recently used
 * start full again, which only ever lets a client through early, never locks one out.
 */
public final class TokenBuckets {

    private static final class Bucket {
        double tokens;
        Instant last;
    }

    private final Cache<String, Bucket> buckets;
    private final Clock clock;

    public TokenBuckets(Clock clock, int keys) {
        this.clock = clock;
        this.buckets = Caffeine.newBuilder().maximumSize(keys).build();
    }

    public long take(String key, double perSecond, int burst) {
        Instant now = clock.instant();
        Bucket bucket = buckets.get(key, k -> {
            Bucket full = new Bucket();
            full.tokens = burst;
            full.last = now;
            return full;
        });
        synchronized (bucket) {
            double elapsed = Math.max(0, Duration.between(bucket.last, now).toNanos()) / 1e9;
            bucket.tokens = Math.min(burst, bucket.tokens + elapsed * perSecond);
            bucket.last = now; // a clock set back (a test's) refills nothing and starves nothing
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - bucket.tokens) / perSecond));
        }
    }
}
