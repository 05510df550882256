package ht.platform.support.limits;

import ht.platform.support.time.MovableClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TokenBucketsTest {

    final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    final TokenBuckets buckets = new TokenBuckets(clock, 100);

    @Test
    void aBurstThenTheWholeSecondsToWaitThenRefilledByTheClock() {
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(2, buckets.take("a", 0.5, 2), "one token at 0.5 per second: 2 s");
        assertEquals(0, buckets.take("b", 0.5, 2), "another key has its own bucket");
        clock.advance(Duration.ofMillis(500));
        assertEquals(2, buckets.take("a", 0.5, 2), "1.5 s left, rounded up");
        clock.advance(Duration.ofMillis(1500));
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(2, buckets.take("a", 0.5, 2));
        clock.advance(Duration.ofHours(1));
        assertEquals(0, buckets.take("a", 0.5, 2));
        assertEquals(0, buckets.take("a", 0.5, 2), "refilled up to the burst only");
        assertEquals(2, buckets.take("a", 0.5, 2));
    }

    @Test
    void aClockSetBackRefillsNothingAndStarvesNothing() {
        assertEquals(0, buckets.take("a", 1, 1));
        assertEquals(1, buckets.take("a", 1, 1));
        clock.advance(Duration.ofHours(-1));
        assertEquals(1, buckets.take("a", 1, 1), "setting the clock back refills nothing");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(0, buckets.take("a", 1, 1), "a second after the set-back refills a token");
    }
}
