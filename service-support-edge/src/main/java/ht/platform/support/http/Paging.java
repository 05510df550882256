package ht.platform.support.http;

import ht.platform.support.errors.ApiException;

/**
 * Cursor pagination arguments of every list endpoint: {@code limit} 1..100 (default 10) and {@code starting_after}.
 * Resources take both as text and parse them here, so a wrong type is a 400 naming the parameter (a JAX-RS
 * conversion failure of an Integer query parameter would be a 404 without one).
 */
public record Paging(int limit, String startingAfter) {

    public static Paging of(String limitText, String startingAfter) {
        int limit = limit(limitText, 10);
        if (startingAfter != null && (startingAfter.isBlank() || startingAfter.length() > 100)) {
            throw ApiException.invalid("starting_after", "starting_after must be the id of an object of this list");
        }
        return new Paging(limit, startingAfter);
    }

    /** {@code limit} 1..100, {@code otherwise} when absent. */
    public static int limit(String text, int otherwise) {
        return integer("limit", text, 1, 100, otherwise);
    }

    /** An integer query parameter within {@code min..max}, {@code otherwise} when absent; else a 400 naming it. */
    public static int integer(String name, String text, int min, int max, int otherwise) {
        if (text == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the one message below
        }
        throw ApiException.invalid(name, name + " must be an integer between " + min + " and " + max);
    }

    /** The 400's message for a cursor that is not one of the caller's objects of the list. */
    public static final String UNKNOWN_CURSOR = "starting_after must be the id of an object of this list";

    public static ApiException unknownCursor() {
        return ApiException.invalid("starting_after", UNKNOWN_CURSOR);
    }
}
