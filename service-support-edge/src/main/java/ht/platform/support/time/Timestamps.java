package ht.platform.support.time;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** UTC ISO-8601 text: seconds (kyc, checkout) or milliseconds (wallet gateway). */
public final class Timestamps {

    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    private Timestamps() { }

    public static String seconds(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    public static String millis(Instant instant) {
        return instant == null ? null : MILLIS.format(instant);
    }
}
