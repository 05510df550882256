package ht.platform.support.crypto;

import org.junit.jupiter.api.Test;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

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

    @Test
    void aStableSealIsTheSameForTheSameValueAndBindingAndOpensLikeAnyOther() {
        byte[] k = key();
        SecretBox box = new SecretBox(k);
        byte[] a = "ab".getBytes(StandardCharsets.US_ASCII);
        byte[] one = box.sealStable(new byte[] {1, 2}, a);
        assertTrue(java.util.Arrays.equals(one, new SecretBox(k).sealStable(new byte[] {1, 2}, a)), "same on every replica");
        assertFalse(java.util.Arrays.equals(one, box.sealStable(new byte[] {1, 3}, a)));
        assertFalse(java.util.Arrays.equals(one, box.sealStable(new byte[] {1, 2}, "ac".getBytes(StandardCharsets.US_ASCII))));
        assertTrue(java.util.Arrays.equals(new byte[] {1, 2}, box.open(one, a)));
        assertThrows(IllegalStateException.class, () -> box.open(one, "ac".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(java.util.Arrays.equals(one, new SecretBox(key()).sealStable(new byte[] {1, 2}, a)), "another key, another box");
    }

    @Test
    void aValueSealedWithAnOldKeyOpensAfterRotationAndNewValuesUseTheCurrentKey() {
        byte[] first = key();
        byte[] second = key();
        SecretBox before = new SecretBox(first);
        String sealed = before.sealText("whsec_one", "we_1");

        SecretBox rotated = new SecretBox(second, List.of(first));
        assertEquals("whsec_one", rotated.openText(sealed, "we_1"));
        String resealed = rotated.sealText("whsec_two", "we_2");
        assertTrue(rotated.sealedWithCurrentKey(Base64.getDecoder().decode(resealed)));
        assertFalse(rotated.sealedWithCurrentKey(Base64.getDecoder().decode(sealed)));
        assertEquals("whsec_two", new SecretBox(second).openText(resealed, "we_2"), "sealed with the current key only");
        assertThrows(IllegalStateException.class, () -> new SecretBox(first).openText(resealed, "we_2"));
    }

    @Test
    void valuesSealedBeforeKeyIdsStillOpenWithAnyConfiguredKey() throws Exception {
        byte[] old = key();
        byte[] iv = new byte[12];
        new SecureRandom().nextBytes(iv);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(old, "AES"), new GCMParameterSpec(128, iv));
        cipher.updateAAD("app_1".getBytes(StandardCharsets.UTF_8));
        byte[] body = cipher.doFinal("whsec_legacy".getBytes(StandardCharsets.UTF_8));
        String legacy = Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + body.length).put(iv).put(body).array());

        assertEquals("whsec_legacy", new SecretBox(old).openText(legacy, "app_1"));
        assertEquals("whsec_legacy", new SecretBox(key(), List.of(old)).openText(legacy, "app_1"));
        assertThrows(IllegalStateException.class, () -> new SecretBox(key()).openText(legacy, "app_1"));
    }

    @Test
    void aValueBoundToAnotherRowDoesNotOpen() {
        SecretBox box = new SecretBox(key());
        String sealed = box.sealText("whsec_x", "we_1");
        assertThrows(IllegalStateException.class, () -> box.openText(sealed, "we_2"));
    }
}
