package ht.platform.kyc.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Walks every field of a JSON document: no image, selfie, template, MRZ or document number can hide in it. */
public final class PrivacyWalk {

    private static final Set<String> FORBIDDEN_NAMES = Set.of("image", "images", "selfie", "photo", "template", "biometric",
            "document_number", "mrz_text", "mrz_lines", "birth_date", "date_of_birth", "name", "surname", "given_names", "face_image");

    private PrivacyWalk() { }

    public static void assertClean(String json, String... secrets) {
        try {
            walk("$", new ObjectMapper().readTree(json), secrets);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void walk(String path, JsonNode node, String[] secrets) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                assertFalse(FORBIDDEN_NAMES.contains(e.getKey().toLowerCase()), "forbidden field " + path + "." + e.getKey());
                walk(path + "." + e.getKey(), e.getValue(), secrets);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(path + "[" + i + "]", node.get(i), secrets);
            }
        } else if (node.isTextual()) {
            String text = node.asText();
            assertTrue(text.length() < 400, "suspiciously long value (an encoded image?) at " + path);
            assertFalse(text.startsWith("data:image") || text.startsWith("/9j/") || text.startsWith("iVBORw0KGgo"), "image data at " + path);
            for (String secret : secrets) {
                assertFalse(text.contains(secret), "personal data at " + path);
            }
        }
    }
}
