package ht.platform.support.time;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Instants as PostgreSQL keeps them: a {@code timestamptz} holds microseconds, so an instant kept in an entity and
 * the same instant read back compare equal only when both were cut to microseconds before they were written.
 */
public final class DatabaseTime {

    private DatabaseTime() { }

    /** The clock's now at the database's precision. */
    public static Instant now(Clock clock) {
        return of(clock.instant());
    }

    public static Instant of(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
