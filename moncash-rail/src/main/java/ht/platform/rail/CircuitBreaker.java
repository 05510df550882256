package ht.platform.rail;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** Shared by every rail (checkout simulator, MonCash). Opens after {@code threshold} consecutive failed calls to a rail; stays open for {@code openFor}. */
public final class CircuitBreaker {

    private final int threshold;
    private final Duration openFor;
    private int consecutiveFailures;
    private Instant openUntil;

    public CircuitBreaker(int threshold, Duration openFor) {
        this.threshold = threshold;
        this.openFor = openFor;
    }

    public synchronized boolean isOpen(Clock clock) {
        return openUntil != null && clock.instant().isBefore(openUntil);
    }

    /** A call answered: closes the breaker, unless it is open (then only the end of the open period closes it). */
    public synchronized void success(Clock clock) {
        if (isOpen(clock)) {
            return;
        }
        consecutiveFailures = 0;
        openUntil = null;
    }

    public synchronized void failure(Clock clock) {
        consecutiveFailures++;
        if (consecutiveFailures >= threshold) {
            openUntil = clock.instant().plus(openFor);
        }
    }

    /** Operators and tests: open at once. */
    public synchronized void trip(Clock clock) {
        consecutiveFailures = threshold;
        openUntil = clock.instant().plus(openFor);
    }

    public synchronized void reset() {
        consecutiveFailures = 0;
        openUntil = null;
    }
}
