package ht.platform.support.time;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;

import java.time.Clock;

@ApplicationScoped
public class ClockProducer {

    private final MovableClock clock = new MovableClock(Clock.systemUTC());

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return clock;
    }

    @Produces
    @Singleton
    @Typed(MovableClock.class)
    MovableClock movableClock() {
        return clock;
    }
}
