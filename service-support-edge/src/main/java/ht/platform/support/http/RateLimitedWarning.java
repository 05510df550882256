package ht.platform.support.http;

import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * One WARN line per interval for a kind of client mistake, however many clients make it: the first of an interval is
 * logged with how many were left out since the last line, the others only counted. A flood of bad requests costs the
 * log one line a minute, not one (or a stack trace) each.
 */
public final class RateLimitedWarning {

    private final Logger log;
    private final Clock clock;
    private final Duration interval;
    private Instant next = Instant.MIN;
    private long suppressed;

    public RateLimitedWarning(Logger log, Clock clock, Duration interval) {
        this.log = log;
        this.clock = clock;
        this.interval = interval;
    }

    /** Logs {@code what} (no client data in it) unless a line was logged less than an interval ago. */
    public void warn(String what) {
        long left;
        synchronized (this) {
            Instant now = clock.instant();
            if (now.isBefore(next)) {
                suppressed++;
                return;
            }
            next = now.plus(interval);
            left = suppressed;
            suppressed = 0;
        }
        log.warnf("%s (%d more like it in the last %d s not logged)", what, left, interval.toSeconds());
    }
}
