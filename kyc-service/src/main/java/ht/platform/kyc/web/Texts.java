package ht.platform.kyc.web;

import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** The hosted page's texts in French (default), English and Haitian Creole: i18n/{locale}.properties. */
@ApplicationScoped
public class Texts {

    public static final List<String> LOCALES = List.of("fr", "en", "ht");

    private final Map<String, Map<String, String>> byLocale = new HashMap<>();

    public Texts() {
        for (String locale : LOCALES) {
            Properties props = new Properties();
            try (InputStream in = Texts.class.getClassLoader().getResourceAsStream("i18n/" + locale + ".properties")) {
                props.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            } catch (IOException | NullPointerException e) {
                throw new IllegalStateException("missing texts for " + locale, e);
            }
            Map<String, String> map = new HashMap<>();
            props.forEach((k, v) -> map.put((String) k, (String) v));
            byLocale.put(locale, Map.copyOf(map));
        }
    }

    public Map<String, String> of(String locale) {
        return byLocale.getOrDefault(locale, byLocale.get("fr"));
    }
}
