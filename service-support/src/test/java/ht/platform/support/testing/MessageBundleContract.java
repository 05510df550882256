package ht.platform.support.testing;

import io.quarkus.qute.i18n.MessageBundle;
import ht.platform.support.web.PageLanguage;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A message bundle is complete: its files for fr, en and ht (e.g. msg_fr, msg_en, msg_ht) each give a non-blank text for every method of
 * the bundle interface and nothing else (Qute itself fails the build for a template key the interface lacks).
 */
public final class MessageBundleContract {

    private MessageBundleContract() { }

    public static void assertComplete(Class<?>... bundles) throws IOException {
        for (Class<?> bundle : bundles) {
            assertBundleComplete(bundle);
        }
    }

    private static void assertBundleComplete(Class<?> bundle) throws IOException {
        Set<String> keys = Arrays.stream(bundle.getDeclaredMethods()).filter(m -> !m.isDefault() && !m.isSynthetic())
                .map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
        for (String language : PageLanguage.LANGUAGES) {
            String file = "messages/" + bundle.getAnnotation(MessageBundle.class).value() + "_" + language + ".properties";
            Properties texts = new Properties();
            try (InputStream in = bundle.getClassLoader().getResourceAsStream(file)) {
                assertNotNull(in, file);
                texts.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
            assertEquals(keys, new TreeSet<>(texts.stringPropertyNames()), file + " keys");
            texts.forEach((k, v) -> assertFalse(((String) v).isBlank(), file + ": " + k + " is blank"));
        }
    }
}
