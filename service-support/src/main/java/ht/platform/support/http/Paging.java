package ht.platform.support.http;

import ht.platform.support.errors.ApiException;

/**
 * Cursor pagination arguments of every list endpoint: {@code limit} 1..100 (default 10) and {@code starting_after}.
 * Resources take both as text and parse them here, so a wrong type is a 400 naming the parameter (a JAX-RS
 * conversion failure of an Integer query parameter would be a 404 without one).
 */
public record Paging(int limit, String startingAfter) {

    public static Paging of(String limitText, String startingAfter) {
        int limit = 10;
        if (limitText != null) {
            try {
                limit = Integer.parseInt(limitText.trim());
            } catch (NumberFormatException e) {
                throw ApiException.invalid("limit", "limit must be an integer between 1 and 100");
            }
            if (limit < 1 || limit > 100) {
                throw ApiException.invalid("limit", "limit must be an integer between 1 and 100");
            }
        }
        if (startingAfter != null && (startingAfter.isBlank() || startingAfter.length() > 100)) {
            throw ApiException.invalid("starting_after", "starting_after must be the id of an object of this list");
        }
        return new Paging(limit, startingAfter);
    }

    /** The 400's message for a cursor that is not one of the caller's objects of the list. */
    public static final String UNKNOWN_CURSOR = "starting_after must be the id of an object of this list";

    public static ApiException unknownCursor() {
        return ApiException.invalid("starting_after", UNKNOWN_CURSOR);
    }
}
