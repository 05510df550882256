package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.errors.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Token bucket per application (per replica), read from the injected clock: 429 RATE_LIMITED with Retry-After. */
@ApplicationScoped
public class RateLimiter {

    private static final class Bucket {
        double tokens;
        long lastNanos;
    }

    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Inject
    KycSettings settings;

    @Inject
    Clock clock;

    public void acquire(String applicationId) {
        double rate = settings.rateLimit().perSecond();
        int burst = settings.rateLimit().burst();
        long now = clock.instant().getEpochSecond() * 1_000_000_000L + clock.instant().getNano();
        Bucket bucket = buckets.computeIfAbsent(applicationId, id -> {
            Bucket b = new Bucket();
            b.tokens = burst;
            b.lastNanos = now;
            return b;
        });
        synchronized (bucket) {
            double elapsed = Math.max(0, now - bucket.lastNanos) / 1e9;
            bucket.tokens = Math.min(burst, bucket.tokens + elapsed * rate);
            bucket.lastNanos = Math.max(bucket.lastNanos, now);
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return;
            }
            long retryAfter = Math.max(1, (long) Math.ceil((1 - bucket.tokens) / rate));
            throw new ApiException(429, "RATE_LIMITED", "Too many verifications created; retry after " + retryAfter + " s",
                    null, Map.of("Retry-After", Long.toString(retryAfter)));
        }
    }
}
