package ht.platform.support.http;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CanonicalPathsTest {

    @Test
    void dotSegmentsNameNothingWhereverTheyStand() {
        for (String path : List.of("/.", "/..", "/./a", "/../a", "/a/.", "/a/..", "/a/./b", "/a/../b", "/a/b/..")) {
            assertFalse(CanonicalPaths.isCanonical(path, path), path);
        }
        for (String path : List.of("/", "/a", "/a/", "/.well-known/x", "/a/.b", "/a/b.", "/a/...", "/v1.2/x", "/a/b..c")) {
            assertTrue(CanonicalPaths.isCanonical(path, path), path);
        }
    }

    @Test
    void printableShowsControlCharactersAsQuestionMarksAndCutsAt200() {
        assertEquals("", CanonicalPaths.printable(null));
        assertEquals("/api/v1/payments/pay_1", CanonicalPaths.printable("/api/v1/payments/pay_1"));
        assertEquals("/a?b?c?", CanonicalPaths.printable("/a\u0000b\u001fc\u007f"));
        assertEquals("/é\u0080ü", CanonicalPaths.printable("/é\u0080ü"));
        String longPath = "/" + "x".repeat(300);
        assertEquals(longPath.substring(0, 200) + "…", CanonicalPaths.printable(longPath));
    }

    @Test
    void printableAgreesWithTheControlCharacterClassOnRandomText() {
        Random random = new Random(25);
        for (int n = 0; n < 5_000; n++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                text.append((char) random.nextInt(0x180));
            }
            String raw = text.toString();
            assertEquals(raw.replaceAll("\\p{Cntrl}", "?"), CanonicalPaths.printable(raw), raw);
        }
    }
}
