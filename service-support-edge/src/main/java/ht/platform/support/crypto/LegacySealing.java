package ht.platform.support.crypto;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The form {@link SecretBox} sealed in before Tink, kept so that every value sealed in it still opens: AES-256-GCM,
 * {@code "PK" 0x01 || key id (4 bytes of SHA-256 of the key) || iv(12) || ciphertext+tag}, or, before key ids,
 * {@code iv || ciphertext+tag}; a stable seal takes an HMAC of the value and its binding as iv. It seals too while
 * {@code platform.encryption.seal-format} is {@code legacy}, so that the release before Tink opens what this one seals.
 */
final class LegacySealing {

    private static final byte[] MAGIC = {'P', 'K', 1};
    private static final int ID = 4;
    private static final int IV = 12;

    private record Key(byte[] id, SecretKeySpec spec) { }

    private final Key current;
    private final List<Key> keys = new ArrayList<>();

    LegacySealing(byte[] currentKey, List<byte[]> oldKeys) {
        this.current = key(currentKey);
        keys.add(current);
        oldKeys.stream().map(LegacySealing::key).filter(k -> keys.stream().noneMatch(c -> Arrays.equals(c.id, k.id))).forEach(keys::add);
    }

    byte[] seal(byte[] plain, byte[] associatedData) {
        byte[] iv = new byte[IV];
        Randomness.secure().nextBytes(iv);
        return seal(plain, associatedData, iv);
    }

    byte[] sealStable(byte[] plain, byte[] associatedData) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            byte[] ivKey = MessageDigest.getInstance("SHA-256").digest(concat("stable-iv|".getBytes(StandardCharsets.US_ASCII),
                    current.spec.getEncoded()));
            mac.init(new SecretKeySpec(ivKey, "HmacSHA256"));
            mac.update(associatedData == null ? new byte[0] : associatedData);
            mac.update((byte) 0);
            return seal(plain, associatedData, Arrays.copyOf(mac.doFinal(plain), IV));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private byte[] seal(byte[] plain, byte[] associatedData, byte[] iv) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, current.spec, new GCMParameterSpec(128, iv));
            if (associatedData != null) {
                cipher.updateAAD(associatedData);
            }
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(MAGIC.length + ID + IV + sealed.length)
                    .put(MAGIC).put(current.id).put(iv).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    byte[] open(byte[] box, byte[] associatedData) {
        if (box.length > MAGIC.length + ID + IV && Arrays.equals(box, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            byte[] id = Arrays.copyOfRange(box, MAGIC.length, MAGIC.length + ID);
            for (Key key : keys) {
                if (Arrays.equals(key.id, id)) {
                    byte[] plain = tryOpen(key, box, MAGIC.length + ID, associatedData);
                    if (plain != null) {
                        return plain;
                    }
                }
            }
        }
        for (Key key : keys) { // sealed before key ids, or (one chance in 2^24) an old iv that starts like MAGIC
            byte[] plain = tryOpen(key, box, 0, associatedData);
            if (plain != null) {
                return plain;
            }
        }
        throw new IllegalStateException("decryption failed: no configured encryption key opens this value");
    }

    boolean sealedWithCurrentKey(byte[] box) {
        return box.length > MAGIC.length + ID && Arrays.equals(box, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                && Arrays.equals(box, MAGIC.length, MAGIC.length + ID, current.id, 0, ID);
    }

    private static byte[] tryOpen(Key key, byte[] box, int offset, byte[] associatedData) {
        if (box.length < offset + IV + 16) {
            return null;
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key.spec, new GCMParameterSpec(128, box, offset, IV));
            if (associatedData != null) {
                cipher.updateAAD(associatedData);
            }
            return cipher.doFinal(box, offset + IV, box.length - offset - IV);
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    private static Key key(byte[] raw) {
        try {
            byte[] id = Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(raw), ID);
            return new Key(id, new SecretKeySpec(raw, "AES"));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
