package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.errors.ApiException;
import ht.platform.support.limits.TokenBuckets;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.Map;

/** Token bucket per application (per replica), read from the injected clock: 429 RATE_LIMITED with Retry-After. */
@ApplicationScoped
public class RateLimiter {

    @Inject
    KycSettings settings;

    @Inject
    Clock clock;

    private TokenBuckets buckets;

    @PostConstruct
    void start() {
        buckets = new TokenBuckets(clock, 100_000);
    }

    public void acquire(String applicationId) {
        long retryAfter = buckets.take(applicationId, settings.rateLimit().perSecond(), settings.rateLimit().burst());
        if (retryAfter > 0) {
            throw new ApiException(429, "RATE_LIMITED", "Too many verifications created; retry after " + retryAfter + " s",
                    null, Map.of("Retry-After", Long.toString(retryAfter)));
        }
    }
}
