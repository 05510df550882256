package ht.platform.rail.moncash;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Optional;

/**
 * MonCash's text times: Haiti local time (America/Port-au-Prince, daylight time included, through the JDK's tz
 * database) written {@code yyyy-MM-dd HH:mm:ss:SSS}. The public sample pairs {@code "created": "2019-05-24 12:36:55:107"}
 * with {@code "timestamp": 1558715815122}, i.e. 16:36:55 UTC: UTC−4 that May.
 */
public final class MonCashTime {

    public static final ZoneId ZONE = ZoneId.of("America/Port-au-Prince");
    public static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS");

    private MonCashTime() { }

    /**
     * The instant a MonCash text time names. A local time the autumn change makes ambiguous (it occurs twice) is
     * resolved to the occurrence nearest {@code near} (the answer's own {@code timestamp}); a local time the spring
     * change skips is moved forward by the gap. Empty when absent or not in MonCash's format.
     */
    public static Optional<Instant> parse(String text, Instant near) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(text.trim(), FORMAT);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
        return Optional.of(ZONE.getRules().getValidOffsets(local).stream()
                .map(offset -> local.toInstant(offset))
                .min(Comparator.comparing((Instant i) -> near == null ? 0 : Math.abs(i.toEpochMilli() - near.toEpochMilli())))
                .orElseGet(() -> ZonedDateTime.ofLocal(local, ZONE, null).toInstant()));
    }

    /** An instant as MonCash writes it. */
    public static String format(Instant instant) {
        return FORMAT.format(instant.atZone(ZONE));
    }

    /** The offset Haiti keeps at {@code instant} (−04:00 in daylight time, −05:00 otherwise). */
    public static ZoneOffset offsetAt(Instant instant) {
        return ZONE.getRules().getOffset(instant);
    }
}
