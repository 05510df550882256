package ht.platform.wallet.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/** The visible texts of the hosted wallet page: French (default), English, Haitian Creole. */
public final class PageTexts {

    public static final List<String> LANGUAGES = List.of("fr", "en", "ht");
    public static final String DEFAULT = "fr";

    private static final Map<String, Map<String, String>> TEXTS = new HashMap<>();

    static {
        for (String lang : LANGUAGES) {
            TEXTS.put(lang, load(lang));
        }
    }

    private PageTexts() { }

    public static Map<String, String> of(String lang) {
        return TEXTS.getOrDefault(lang, TEXTS.get(DEFAULT));
    }

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

    private static Map<String, String> load(String lang) {
        try (InputStream in = PageTexts.class.getResourceAsStream("/i18n/wallet_" + lang + ".properties")) {
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, String> out = new HashMap<>();
            p.forEach((k, v) -> out.put((String) k, (String) v));
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
