package ht.platform.webhooks.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * When to try a failed delivery again: the first attempt is at once, and each failure is followed by the next
 * delay of the schedule until it is exhausted. Immutable.
 */
public final class RetrySchedule {
    private final List<Duration> delays;

    private RetrySchedule(List<Duration> delays) {
        for (Duration delay : delays) {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a retry delay must not be negative: " + delay);
            }
        }
        this.delays = List.copyOf(delays);
    }

    /** A schedule from the delays that follow the 1st, 2nd, ... failed attempt. */
    public static RetrySchedule of(Duration... delaysAfterEachFailure) {
        Objects.requireNonNull(delaysAfterEachFailure, "delays");
        return new RetrySchedule(Arrays.asList(delaysAfterEachFailure));
    }

    /**
     * Parses comma-separated delays, each a positive integer and a unit {@code s}, {@code m}, {@code h} or
     * {@code d}, e.g. {@code "1m,5m,15m,1h,6h,24h"}. Blank text is a schedule without retries.
     *
     * @throws IllegalArgumentException on any other text
     */
    public static RetrySchedule parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            return new RetrySchedule(List.of());
        }
        List<Duration> delays = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            delays.add(parseDelay(part.trim()));
        }
        return new RetrySchedule(delays);
    }

    /** Total number of attempts: the first one plus one per delay. */
    public int maxAttempts() {
        return delays.size() + 1;
    }

    /**
     * @param attemptNumber the 1-based number of the attempt that just failed
     * @return the delay before the next attempt, or empty when that was the last attempt
     */
    public Optional<Duration> delayAfterFailedAttempt(int attemptNumber) {
        if (attemptNumber < 1) {
            throw new IllegalArgumentException("attempt numbers start at 1: " + attemptNumber);
        }
        return attemptNumber <= delays.size() ? Optional.of(delays.get(attemptNumber - 1)) : Optional.empty();
    }

    /** When the next attempt is due after attempt {@code attemptNumber} failed at {@code failedAt}, or empty. */
    public Optional<Instant> nextAttemptAt(int attemptNumber, Instant failedAt) {
        Objects.requireNonNull(failedAt, "failedAt");
        return delayAfterFailedAttempt(attemptNumber).map(failedAt::plus);
    }

    /** The delays, unmodifiable. */
    public List<Duration> delays() {
        return delays;
    }

    private static Duration parseDelay(String part) {
        if (part.length() < 2 || part.length() > 10) {
            throw new IllegalArgumentException("not a delay: '" + part + "' (expected e.g. 30s, 5m, 2h, 1d)");
        }
        String number = part.substring(0, part.length() - 1);
        if (!number.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("not a delay: '" + part + "' (expected e.g. 30s, 5m, 2h, 1d)");
        }
        long amount = Long.parseLong(number);
        if (amount == 0) {
            throw new IllegalArgumentException("a retry delay must be positive: '" + part + "'");
        }
        return switch (part.charAt(part.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount);
            case 'm' -> Duration.ofMinutes(amount);
            case 'h' -> Duration.ofHours(amount);
            case 'd' -> Duration.ofDays(amount);
            default -> throw new IllegalArgumentException("unknown unit in '" + part + "' (use s, m, h or d)");
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RetrySchedule schedule && delays.equals(schedule.delays);
    }

    @Override
    public int hashCode() {
        return delays.hashCode();
    }

    /** The schedule in the notation of {@link #parse}, e.g. {@code 1m,5m,1h}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Duration delay : delays) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(format(delay));
        }
        return sb.toString();
    }

    private static String format(Duration delay) {
        long seconds = delay.getSeconds();
        if (delay.getNano() != 0) {
            return delay.toString();
        }
        if (seconds != 0 && seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
