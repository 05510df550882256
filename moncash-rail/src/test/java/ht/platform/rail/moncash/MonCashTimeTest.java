package ht.platform.rail.moncash;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Haiti local time through the JDK's tz database, both daylight-time changes included. */
class MonCashTimeTest {

    @Test
    void thePublicSampleIsUtcMinusFourInMay() {
        assertEquals(Optional.of(Instant.parse("2019-05-24T16:36:55.107Z")),
                MonCashTime.parse("2019-05-24 12:36:55:107", Instant.ofEpochMilli(1558715815122L)));
    }

    @Test
    void winterIsUtcMinusFive() {
        assertEquals(Optional.of(Instant.parse("2026-11-24T14:00:00Z")), MonCashTime.parse("2026-11-24 09:00:00:000", null));
        assertEquals("2026-11-24 09:00:00:000", MonCashTime.format(Instant.parse("2026-11-24T14:00:00Z")));
    }

    @Test
    void springForwardOnTheSecondSundayOfMarch() {
        // 2026-03-08 02:00 EST becomes 03:00 EDT (07:00 UTC)
        assertEquals(ZoneOffset.ofHours(-5), MonCashTime.offsetAt(Instant.parse("2026-03-08T06:59:59Z")));
        assertEquals(ZoneOffset.ofHours(-4), MonCashTime.offsetAt(Instant.parse("2026-03-08T07:00:00Z")));
        assertEquals(Optional.of(Instant.parse("2026-03-08T06:55:00Z")), MonCashTime.parse("2026-03-08 01:55:00:000", null));
        assertEquals(Optional.of(Instant.parse("2026-03-08T07:05:00Z")), MonCashTime.parse("2026-03-08 03:05:00:000", null));
        // a token created at 01:55 EST expires ten minutes later, written 03:05
        assertEquals("2026-03-08 03:05:00:000", MonCashTime.format(Instant.parse("2026-03-08T06:55:00Z").plusSeconds(600)));
        // a local time the change skips cannot be written by MonCash; read it an hour on rather than fail
        assertEquals(Optional.of(Instant.parse("2026-03-08T07:30:00Z")), MonCashTime.parse("2026-03-08 02:30:00:000", null));
    }

    @Test
    void fallBackOnTheFirstSundayOfNovemberResolvesTheRepeatedHourByTheAnswersTimestamp() {
        // 2026-11-01 02:00 EDT becomes 01:00 EST (06:00 UTC): 01:00-01:59 local happens twice
        Instant firstPass = Instant.parse("2026-11-01T05:55:00Z"); // 01:55 EDT
        Instant secondPass = Instant.parse("2026-11-01T06:55:00Z"); // 01:55 EST
        assertEquals(Optional.of(firstPass), MonCashTime.parse("2026-11-01 01:55:00:000", firstPass));
        assertEquals(Optional.of(secondPass), MonCashTime.parse("2026-11-01 01:55:00:000", secondPass));
        // created 01:55 EDT, expires 10 minutes later: "01:05" local, the second (EST) one
        assertEquals("2026-11-01 01:05:00:000", MonCashTime.format(firstPass.plusSeconds(600)));
        assertEquals(Optional.of(firstPass.plusSeconds(600)), MonCashTime.parse("2026-11-01 01:05:00:000", firstPass));
    }

    @Test
    void absentOrForeignTextsAreEmpty() {
        assertEquals(Optional.empty(), MonCashTime.parse(null, null));
        assertEquals(Optional.empty(), MonCashTime.parse("2026-11-24T09:00:00Z", null));
        assertEquals(Optional.empty(), MonCashTime.parse("2026-11-24 09:00:00.000", null));
    }
}
