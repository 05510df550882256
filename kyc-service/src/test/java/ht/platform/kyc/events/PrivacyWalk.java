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
            "document_number", "mrz_text", "mrz_lines", "birth_date", "date_of_birth", "name", "surname", "given_names", "face_image",
            "first_name", "last_name", "full_name", "given_name", "dob", "document_image", "selfie_image", "front", "back", "face_template",
            "embedding", "portrait");

    private PrivacyWalk() { }

    /** How many textual leaves the last walks looked at (a walk that saw nothing proves nothing). */
    public static int leaves(String json) {
        try {
            return count(new ObjectMapper().readTree(json));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int count(JsonNode node) {
        if (node.isContainerNode()) {
            int n = 0;
            for (JsonNode child : node) {
                n += count(child);
            }
            return n;
        }
        return 1;
    }

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
            assertFalse(text.startsWith("data:image") || text.contains("/9j/4") || text.contains("iVBORw0KGgo"), "image data at " + path);
            String lower = text.toLowerCase(java.util.Locale.ROOT);
            assertFalse(lower.contains("89504e470d0a1a0a") || lower.startsWith("ffd8ff") || lower.startsWith("\\x89png"), "image bytes at " + path);
            for (String secret : secrets) {
                assertFalse(lower.contains(secret.toLowerCase(java.util.Locale.ROOT)), "personal data at " + path);
            }
        }
    }
}
