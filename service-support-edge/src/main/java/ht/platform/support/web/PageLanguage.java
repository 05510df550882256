package ht.platform.support.web;

import java.util.List;
import java.util.Locale;

/**
 * The language of a hosted page: French (the default), English or Haitian Creole.
 *
 * <p>The convention every page of the three services follows: each service has ONE Qute message bundle,
 * {@code web/Messages} ({@code @MessageBundle(value = "msg", locale = "fr")}), whose texts live in
 * {@code src/main/resources/messages/msg_fr.properties}, {@code msg_en.properties} and {@code msg_ht.properties}
 * (same keys in all three, checked by the test-jar's {@code MessageBundleContract}). Templates read
 * {@code {msg:key}} (type-checked: a key the bundle does not declare fails the build) or, for a key computed from a
 * status, {@code {msg:message(key)}}; the resource sets the template instance's locale to {@link #choose}'s answer.
 * Keys of a new page start with the page's name ({@code dash_…}).
 */
public final class PageLanguage {

    public static final List<String> LANGUAGES = List.of("fr", "en", "ht");
    public static final String DEFAULT = "fr";

    private PageLanguage() { }

    /** {@code ?lang=} when it names a supported language, else the first supported one of Accept-Language, else French. */
    public static String choose(String requested, String acceptLanguage) {
        if (requested != null && LANGUAGES.contains(requested.toLowerCase(Locale.ROOT))) {
            return requested.toLowerCase(Locale.ROOT);
        }
        if (acceptLanguage != null && !acceptLanguage.isBlank()) {
            try {
                for (Locale.LanguageRange range : Locale.LanguageRange.parse(acceptLanguage)) {
                    if (range.getWeight() <= 0) {
                        continue;
                    }
                    String primary = range.getRange().split("-")[0].toLowerCase(Locale.ROOT);
                    if (LANGUAGES.contains(primary)) {
                        return primary;
                    }
                }
            } catch (IllegalArgumentException ignored) {
                // a malformed header falls back to the default
            }
        }
        return DEFAULT;
    }
}
