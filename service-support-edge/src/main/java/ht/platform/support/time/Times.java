package ht.platform.support.time;

import ht.platform.support.errors.ApiException;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Times given by a client: ISO-8601 with an offset (2026-11-23T10:00:00Z), or a local time read as UTC (a form's datetime-local). */
public final class Times {

    private Times() { }

    /** null when absent; a 400 naming {@code param} when it is not a time. */
    public static Instant parse(String param, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String t = text.strip();
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                throw ApiException.invalid(param, param + " must be an ISO-8601 time such as 2026-11-23T10:00:00Z");
            }
        }
    }
}
