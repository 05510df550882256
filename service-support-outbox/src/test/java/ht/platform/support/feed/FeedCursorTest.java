package ht.platform.support.feed;

import ht.platform.support.crypto.SealFormat;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cursors are looked up by opening them, never by comparing them: one handed out in either form reads on in the other. */
class FeedCursorTest {

    @Test
    void cursorsOfEitherFormResumeAtTheirPosition() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        FeedCursor legacy = new FeedCursor(new SecretBox(key, List.of(), SealFormat.LEGACY));
        FeedCursor tink = new FeedCursor(new SecretBox(key, List.of(), SealFormat.TINK));
        String before = legacy.of("app_1", "live", 42);
        String after = tink.of("app_1", "live", 42);
        assertNotEquals(before, after, "the two forms differ");
        assertEquals(after, tink.of("app_1", "live", 42), "stable within a form, on every replica");
        for (FeedCursor cursors : List.of(legacy, tink)) {
            assertEquals(42, cursors.position("app_1", "live", before));
            assertEquals(42, cursors.position("app_1", "live", after));
            assertThrows(ApiException.class, () -> cursors.position("app_2", "live", after));
            assertThrows(ApiException.class, () -> cursors.position("app_1", "test", before));
        }
        assertTrue(after.length() <= 120, after);
    }

    @Test
    void aCursorOfAnOldKeyReadsOnAfterRotation() {
        byte[] first = new byte[32];
        byte[] second = new byte[32];
        new SecureRandom().nextBytes(first);
        new SecureRandom().nextBytes(second);
        String old = new FeedCursor(new SecretBox(first, List.of(), SealFormat.TINK)).of("app_1", "live", 7);
        assertEquals(7, new FeedCursor(new SecretBox(second, List.of(first), SealFormat.TINK)).position("app_1", "live", old));
        assertThrows(ApiException.class, () -> new FeedCursor(new SecretBox(second, List.of(), SealFormat.TINK)).position("app_1", "live", old));
    }
}
