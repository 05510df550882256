package ht.platform.support.auth;

import java.util.regex.Pattern;

/**
 * The one rule for keeping credentials out of what is stored or shown (API logs, idempotency records): any value
 * that is a credential by its shape, wherever it sits in a text (a field, a URL's query, a message), keeps its
 * prefix and loses the rest. The shapes: dashboard sign-in links ({@code dl_…}), webhook secrets ({@code whsec_…})
 * and API keys ({@code kyc_|co_|gw_} + {@code test_|live_} + …). A field-name list cannot know every place a
 * credential travels (the sign-in link was in {@code url}); the shape does.
 */
public final class Credentials {

    public static final String MASK = "••••••";

    private static final Pattern SHAPE = Pattern.compile(
            "(?<![A-Za-z0-9])(dl_|whsec_|(?:kyc|co|gw)_(?:test|live)_)[A-Za-z0-9_-]{16,}");

    private Credentials() { }

    /** {@code text} with every credential-shaped value masked; null stays null. */
    public static String mask(String text) {
        if (text == null || text.isEmpty() || !mayHold(text)) {
            return text;
        }
        return SHAPE.matcher(text).replaceAll("$1" + MASK);
    }

    public static boolean contains(String text) {
        return text != null && mayHold(text) && SHAPE.matcher(text).find();
    }

    /** False when no credential can be in {@code text}: every shape holds one of these (a scan far cheaper than the pattern's). */
    private static boolean mayHold(String text) {
        return text.contains("_test_") || text.contains("_live_") || text.contains("dl_") || text.contains("whsec_");
    }
}
