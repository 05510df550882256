package ht.platform.webhooks.retry;

import static java.time.Duration.ofDays;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryScheduleTest {

    @Test
    void walletGatewaySchedule() {
        RetrySchedule wallet = RetrySchedule.parse("1m,5m,15m,1h,6h,24h");
        assertEquals(7, wallet.maxAttempts());
        assertEquals(List.of(ofMinutes(1), ofMinutes(5), ofMinutes(15), ofHours(1), ofHours(6), ofHours(24)), wallet.delays());
        assertEquals(Optional.of(ofMinutes(1)), wallet.delayAfterFailedAttempt(1));
        assertEquals(Optional.of(ofMinutes(15)), wallet.delayAfterFailedAttempt(3));
        assertEquals(Optional.of(ofHours(24)), wallet.delayAfterFailedAttempt(6));
        assertEquals(Optional.empty(), wallet.delayAfterFailedAttempt(7));
        assertEquals(Optional.empty(), wallet.delayAfterFailedAttempt(100));
        assertEquals(wallet, RetrySchedule.of(ofMinutes(1), ofMinutes(5), ofMinutes(15), ofHours(1), ofHours(6), ofDays(1)));
    }

    @Test
    void kycAndCheckoutSchedule() {
        RetrySchedule schedule = RetrySchedule.parse("1m,5m,30m,2h,6h,12h,24h,24h");
        assertEquals(9, schedule.maxAttempts());
        Duration[] expected = {ofMinutes(1), ofMinutes(5), ofMinutes(30), ofHours(2), ofHours(6), ofHours(12), ofHours(24), ofHours(24)};
        for (int attempt = 1; attempt <= 8; attempt++) {
            assertEquals(Optional.of(expected[attempt - 1]), schedule.delayAfterFailedAttempt(attempt), "after attempt " + attempt);
        }
        assertEquals(Optional.empty(), schedule.delayAfterFailedAttempt(9));
        Duration total = schedule.delays().stream().reduce(Duration.ZERO, Duration::plus);
        assertEquals(ofHours(68).plusMinutes(36), total);
    }

    @Test
    void nextAttemptTime() {
        RetrySchedule schedule = RetrySchedule.parse("1m,5m");
        Instant failedAt = Instant.parse("2026-11-22T10:15:30Z");
        assertEquals(Optional.of(Instant.parse("2026-11-22T10:16:30Z")), schedule.nextAttemptAt(1, failedAt));
        assertEquals(Optional.of(Instant.parse("2026-11-22T10:20:30Z")), schedule.nextAttemptAt(2, failedAt));
        assertEquals(Optional.empty(), schedule.nextAttemptAt(3, failedAt));
    }

    @Test
    void unitsWhitespaceAndEmptySchedules() {
        assertEquals(List.of(ofSeconds(30), ofMinutes(2), ofHours(3), ofDays(1)), RetrySchedule.parse(" 30s , 2m,3h ,1d").delays());
        assertEquals(1, RetrySchedule.parse("").maxAttempts());
        assertEquals(1, RetrySchedule.of().maxAttempts());
        assertEquals(Optional.empty(), RetrySchedule.of().delayAfterFailedAttempt(1));
    }

    @Test
    void toStringRoundTrips() {
        RetrySchedule schedule = RetrySchedule.parse("1m,5m,30m,2h,6h,12h,24h,24h");
        assertEquals("1m,5m,30m,2h,6h,12h,24h,24h", schedule.toString());
        assertEquals(RetrySchedule.of(ofSeconds(90), ofDays(2)), RetrySchedule.parse(RetrySchedule.of(ofSeconds(90), ofDays(2)).toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "m", "1x", "1m,,5m", "-1m", "1.5h", "0m", "1 m", "5M", "1m;5m", "99999999999d"})
    void rejectsBadText(String text) {
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse(text));
    }

    @Test
    void rejectsNegativeDelaysAndAttemptZero() {
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.of(ofMinutes(-1)));
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse("1m").delayAfterFailedAttempt(0));
        assertThrows(NullPointerException.class, () -> RetrySchedule.of(ofMinutes(1), null));
    }
}
