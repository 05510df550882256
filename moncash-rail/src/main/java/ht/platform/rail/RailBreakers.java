package ht.platform.rail;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.time.Clock;
import java.time.Duration;

/**
 * The circuit breaker of every rail (checkout's simulator, MonCash): Resilience4j's, open after {@link #FAILURES}
 * failed calls in a row (a count window of that size, all of it failed) for {@link #OPEN_FOR}; then one call is let
 * through, whose answer closes it or opens it again (unanswered for {@link #OPEN_FOR}: open again). Its time is the
 * service's clock.
 */
public final class RailBreakers {

    public static final int FAILURES = 5;
    public static final Duration OPEN_FOR = Duration.ofSeconds(30);

    private RailBreakers() {
    }

    public static CircuitBreaker of(String rail, Clock clock) {
        return CircuitBreaker.of(rail, CircuitBreakerConfig.custom()
                .slidingWindow(FAILURES, FAILURES, CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(100)
                .waitDurationInOpenState(OPEN_FOR)
                .permittedNumberOfCallsInHalfOpenState(1)
                .maxWaitDurationInHalfOpenState(OPEN_FOR)
                .clock(clock)
                .build());
    }

    /** Whether a call would be let through now, without taking the place of one. */
    public static boolean letsCallsThrough(CircuitBreaker breaker) {
        if (!breaker.tryAcquirePermission()) {
            return false;
        }
        breaker.releasePermission();
        return true;
    }
}
