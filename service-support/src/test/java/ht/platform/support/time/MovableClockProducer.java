package ht.platform.support.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/**
 * In the services' tests (this test-jar is a bean archive) the clock is a {@link MovableClock}: it stands in for the
 * system clock that {@link ClockProducer} gives the application otherwise, and tests inject it to move time.
 */
@ApplicationScoped
public class MovableClockProducer {

    private final MovableClock clock = new MovableClock(Clock.systemUTC());

    @Produces
    @Singleton
    MovableClock clock() {
        return clock;
    }
}
