package ht.platform.support.limits;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TokenBucketsTest {

    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

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
            return now;
        }
    }

    final MovableClock clock = new MovableClock();
    final TokenBuckets buckets = new TokenBuckets(clock, 100);

    @Test
    void aBurstThenTheWholeSecondsToWaitThenRefilledByTheClock() {
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(2, buckets.take("a", 0.5, 2), "one token at 0.5 per second: 2 s");
        assertEquals(0, buckets.take("b", 0.5, 2), "another key has its own bucket");
        clock.now = clock.now.plusMillis(500);
        assertEquals(2, buckets.take("a", 0.5, 2), "1.5 s left, rounded up");
        clock.now = clock.now.plusMillis(1500);
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(2, buckets.take("a", 0.5, 2));
        clock.now = clock.now.plus(Duration.ofHours(1));
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(0, buckets.take("a", 0.5, 2), "refilled up to the burst only");
        assertEquals(2, buckets.take("a", 0.5, 2));
    }

    @Test
    void aClockSetBackRefillsNothingAndStarvesNothing() {
        assertEquals(0, buckets.take("a", 1, 1));
        assertEquals(1, buckets.take("a", 1, 1));
        clock.now = clock.now.minus(Duration.ofHours(1));
        assertEquals(1, buckets.take("a", 1, 1), "setting the clock back refills nothing");
        clock.now = clock.now.plusSeconds(1);
        assertEquals(0, buckets.take("a", 1, 1), "a second after the set-back refills a token");
    }
}
