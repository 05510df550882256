package ht.platform.support.http;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RefusalLinesTest {

    /** A clock the test moves. */
    static final class Hand extends Clock {
        Instant now = Instant.parse("2026-11-29T00:00:00Z");

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

    @Test
    void aClientsRefusalsGetOneLineASecondCarryingHowManyWereLeftOut() {
        Hand clock = new Hand();
        RefusalLines lines = new RefusalLines(clock);
        assertEquals(0, lines.admit("127.0.0.2"));
        for (int i = 0; i < 1_999; i++) {
            assertEquals(RefusalLines.LEFT_OUT, lines.admit("127.0.0.2"));
        }
        clock.now = clock.now.plusMillis(999);
        assertEquals(RefusalLines.LEFT_OUT, lines.admit("127.0.0.2"));
        clock.now = clock.now.plusMillis(1);
        assertEquals(2_000, lines.admit("127.0.0.2"));
        assertEquals(RefusalLines.LEFT_OUT, lines.admit("127.0.0.2"));
        clock.now = clock.now.plusSeconds(60);
        assertEquals(1, lines.admit("127.0.0.2"));
    }

    @Test
    void eachClientHasItsOwnSecond() {
        Hand clock = new Hand();
        RefusalLines lines = new RefusalLines(clock);
        assertEquals(0, lines.admit("127.0.0.2"));
        assertEquals(RefusalLines.LEFT_OUT, lines.admit("127.0.0.2"));
        assertEquals(0, lines.admit("127.0.0.3"), "another client's first refusal is logged");
        assertEquals(RefusalLines.LEFT_OUT, lines.admit("127.0.0.3"));
    }
}
