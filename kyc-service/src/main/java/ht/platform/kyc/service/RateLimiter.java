package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.errors.ApiException;
import ht.platform.support.limits.TokenBuckets;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.Map;

/** Token bucket per application (per replica), read from the injected clock: 429 RATE_LIMITED with Retry-After. */
@ApplicationScoped
@Startup // its metrics exist from the start, at 0
public class RateLimiter {

    @Inject
    KycSettings settings;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry registry;

    private TokenBuckets buckets;

    @PostConstruct
    void start() {
        buckets = new TokenBuckets(clock, 100_000, TokenBuckets.refusals(registry, "kyc_verifications"));
    }

    public void acquire(String applicationId) {
        long retryAfter = buckets.take(applicationId, settings.rateLimit().perSecond(), settings.rateLimit().burst());
        if (retryAfter > 0) {
            throw new ApiException(429, "RATE_LIMITED", "Too many verifications created; retry after " + retryAfter + " s",
                    null, Map.of("Retry-After", Long.toString(retryAfter)));
        }
    }
}
