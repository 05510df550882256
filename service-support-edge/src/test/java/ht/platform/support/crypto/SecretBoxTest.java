package ht.platform.support.crypto;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretBoxTest {

    static byte[] key() {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        return k;
    }

    static SecretBox box(SealFormat format, byte[] key, byte[]... old) {
        return new SecretBox(key, List.of(old), format);
    }

    @ParameterizedTest
    @EnumSource(SealFormat.class)
    void aStableSealIsTheSameForTheSameValueAndBindingAndOpensLikeAnyOther(SealFormat format) {
        byte[] k = key();
        SecretBox box = box(format, k);
        byte[] a = "ab".getBytes(StandardCharsets.US_ASCII);
        byte[] one = box.sealStable(new byte[] {1, 2}, a);
        assertArrayEquals(one, box(format, k).sealStable(new byte[] {1, 2}, a), "same on every replica");
        assertFalse(Arrays.equals(one, box.sealStable(new byte[] {1, 3}, a)));
        assertFalse(Arrays.equals(one, box.sealStable(new byte[] {1, 2}, "ac".getBytes(StandardCharsets.US_ASCII))));
        assertArrayEquals(new byte[] {1, 2}, box.open(one, a));
        assertThrows(IllegalStateException.class, () -> box.open(one, "ac".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(Arrays.equals(one, box(format, key()).sealStable(new byte[] {1, 2}, a)), "another key, another box");
        assertTrue(box.sealedWithCurrentKey(one));
    }

    @ParameterizedTest
    @EnumSource(SealFormat.class)
    void aValueSealedWithAnOldKeyOpensAfterRotationAndNewValuesUseTheCurrentKey(SealFormat format) {
        byte[] first = key();
        byte[] second = key();
        SecretBox before = box(format, first);
        String sealed = before.sealText("whsec_one", "we_1");
        byte[] stable = before.sealStable(new byte[] {7}, null);

        SecretBox rotated = box(format, second, first);
        assertEquals("whsec_one", rotated.openText(sealed, "we_1"));
        assertArrayEquals(new byte[] {7}, rotated.open(stable, null));
        String resealed = rotated.sealText("whsec_two", "we_2");
        assertTrue(rotated.sealedWithCurrentKey(Base64.getDecoder().decode(resealed)));
        assertFalse(rotated.sealedWithCurrentKey(Base64.getDecoder().decode(sealed)));
        assertFalse(rotated.sealedWithCurrentKey(stable));
        assertEquals("whsec_two", box(format, second).openText(resealed, "we_2"), "sealed with the current key only");
        assertThrows(IllegalStateException.class, () -> box(format, first).openText(resealed, "we_2"));
    }

    @Test
    void tinkSealsInItsOwnFormNamingTheKey() {
        byte[] k = key();
        SecretBox box = box(SealFormat.TINK, k);
        byte[] sealed = box.seal("whsec_t".getBytes(StandardCharsets.UTF_8), "we_1".getBytes(StandardCharsets.UTF_8));
        assertEquals(1, sealed[0], "Tink's output prefix");
        assertEquals(5 + 12 + 7 + 16, sealed.length, "prefix, iv, text, tag");
        byte[] stable = box.sealStable(new byte[8], "feed".getBytes(StandardCharsets.UTF_8));
        assertEquals(1, stable[0]);
        assertEquals(5 + 16 + 8, stable.length, "prefix, synthetic iv, text");
        assertFalse(Arrays.equals(sealed, box.seal("whsec_t".getBytes(StandardCharsets.UTF_8), "we_1".getBytes(StandardCharsets.UTF_8))),
                "seal is randomized");
        // no associated data and empty associated data are one binding, as they were
        byte[] unbound = box.seal(new byte[] {3}, null);
        assertArrayEquals(new byte[] {3}, box.open(unbound, new byte[0]));
    }

    @Test
    void legacyIsTheDefaultAndSealsWhatTheReleaseBeforeOpens() throws Exception {
        byte[] k = key();
        byte[] sealed = new SecretBox(k).seal("whsec_l".getBytes(StandardCharsets.UTF_8), "we_1".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(new byte[] {'P', 'K', 1}, Arrays.copyOf(sealed, 3));
        assertEquals("whsec_l", new String(previousReleaseOpen(k, sealed, "we_1"), StandardCharsets.UTF_8));
        byte[] stable = new SecretBox(k).sealStable(new byte[] {9}, null);
        assertArrayEquals(new byte[] {9}, previousReleaseOpen(k, stable, null));
    }

    /** Rows of a database of the release before Tink: both earlier forms, written here as that release wrote them. */
    @ParameterizedTest
    @EnumSource(SealFormat.class)
    void valuesOfTheReleaseBeforeTinkStillOpen(SealFormat format) throws Exception {
        byte[] old = key();
        String withId = Base64.getEncoder().encodeToString(previousReleaseSeal(old, true, "whsec_pk", "app_1"));
        String beforeIds = Base64.getEncoder().encodeToString(previousReleaseSeal(old, false, "whsec_legacy", "app_1"));
        for (SecretBox box : List.of(box(format, old), box(format, key(), old))) {
            assertEquals("whsec_pk", box.openText(withId, "app_1"));
            assertEquals("whsec_legacy", box.openText(beforeIds, "app_1"));
            assertThrows(IllegalStateException.class, () -> box.openText(withId, "app_2"));
        }
        assertTrue(box(format, old).sealedWithCurrentKey(Base64.getDecoder().decode(withId)));
        assertThrows(IllegalStateException.class, () -> box(format, key()).openText(withId, "app_1"));
        assertThrows(IllegalStateException.class, () -> box(format, key()).openText(beforeIds, "app_1"));
    }

    @Test
    void eitherFormOpensWhateverTheSetting() {
        byte[] k = key();
        byte[] a = "feed-cursor|app_1|live".getBytes(StandardCharsets.UTF_8);
        byte[] legacyCursor = box(SealFormat.LEGACY, k).sealStable(new byte[] {0, 0, 0, 0, 0, 0, 0, 42}, a);
        byte[] tinkCursor = box(SealFormat.TINK, k).sealStable(new byte[] {0, 0, 0, 0, 0, 0, 0, 42}, a);
        byte[] legacySecret = box(SealFormat.LEGACY, k).seal(new byte[] {5}, a);
        byte[] tinkSecret = box(SealFormat.TINK, k).seal(new byte[] {5}, a);
        for (SealFormat format : SealFormat.values()) {
            SecretBox box = box(format, k);
            assertArrayEquals(box.open(legacyCursor, a), box.open(tinkCursor, a), format + " opens both cursors");
            assertArrayEquals(new byte[] {5}, box.open(legacySecret, a));
            assertArrayEquals(new byte[] {5}, box.open(tinkSecret, a));
        }
    }

    @ParameterizedTest
    @EnumSource(SealFormat.class)
    void aValueBoundToAnotherRowDoesNotOpen(SealFormat format) {
        SecretBox box = box(format, key());
        String sealed = box.sealText("whsec_x", "we_1");
        assertThrows(IllegalStateException.class, () -> box.openText(sealed, "we_2"));
        assertThrows(IllegalStateException.class, () -> box.open(new byte[] {1, 2, 3, 4, 5, 6, 7}, null));
    }

    @Test
    void aKeyThatIsNot32BytesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SecretBox(new byte[16]));
        assertThrows(IllegalArgumentException.class, () -> new SecretBox(key(), List.of(new byte[31]), SealFormat.TINK));
    }

    /** The previous release's SecretBox.seal, written out with the JDK alone. */
    private static byte[] previousReleaseSeal(byte[] key, boolean withKeyId, String plain, String bound) throws Exception {
        byte[] iv = new byte[12];
        new SecureRandom().nextBytes(iv);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
        cipher.updateAAD(bound.getBytes(StandardCharsets.UTF_8));
        byte[] body = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
        if (!withKeyId) {
            return ByteBuffer.allocate(12 + body.length).put(iv).put(body).array();
        }
        byte[] id = Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(key), 4);
        return ByteBuffer.allocate(3 + 4 + 12 + body.length).put(new byte[] {'P', 'K', 1}).put(id).put(iv).put(body).array();
    }

    /** The previous release's SecretBox.open of its keyed form, written out with the JDK alone. */
    private static byte[] previousReleaseOpen(byte[] key, byte[] box, String bound) throws Exception {
        assertArrayEquals(Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(key), 4), Arrays.copyOfRange(box, 3, 7));
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, box, 7, 12));
        if (bound != null) {
            cipher.updateAAD(bound.getBytes(StandardCharsets.UTF_8));
        }
        return cipher.doFinal(box, 19, box.length - 19);
    }
}
