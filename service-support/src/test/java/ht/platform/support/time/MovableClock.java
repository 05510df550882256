package ht.platform.support.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The services' clock in tests: the system's UTC clock plus an offset that tests move, so retry schedules and
 * expiries are tested by moving time instead of sleeping.
 */
public final class MovableClock extends Clock {

    private final Clock base;
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    public MovableClock(Clock base) {
        this.base = base;
    }

    public void advance(Duration amount) {
        offset.accumulateAndGet(amount, Duration::plus);
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset.get());
    }
}
