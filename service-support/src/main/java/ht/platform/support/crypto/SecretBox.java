package ht.platform.support.crypto;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

/** AES-256-GCM for what is kept encrypted at rest (webhook secrets, identity images): iv(12) || ciphertext+tag. */
@ApplicationScoped
public class SecretBox {

    private final SecretKeySpec key;

    @Inject
    public SecretBox(CryptoSettings settings) {
        this(Base64.getDecoder().decode(settings.key().trim()));
    }

    public SecretBox(byte[] rawKey) {
        if (rawKey.length != 32) {
            throw new IllegalArgumentException("platform.encryption.key must be 32 bytes in base64");
        }
        this.key = new SecretKeySpec(rawKey, "AES");
    }

    public byte[] seal(byte[] plain, byte[] associatedData) {
        try {
            byte[] iv = new byte[12];
            Randomness.secure().nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            if (associatedData != null) {
                cipher.updateAAD(associatedData);
            }
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    public byte[] open(byte[] box, byte[] associatedData) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, box, 0, 12));
            if (associatedData != null) {
                cipher.updateAAD(associatedData);
            }
            return cipher.doFinal(box, 12, box.length - 12);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("decryption failed", e);
        }
    }

    /** Text secrets (whsec_…) as base64 text, bound to the row they belong to. */
    public String sealText(String plain, String boundTo) {
        return Base64.getEncoder().encodeToString(seal(plain.getBytes(StandardCharsets.UTF_8), bytes(boundTo)));
    }

    public String openText(String sealed, String boundTo) {
        return new String(open(Base64.getDecoder().decode(sealed), bytes(boundTo)), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
