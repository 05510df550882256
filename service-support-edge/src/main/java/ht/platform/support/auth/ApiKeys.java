package ht.platform.support.auth;

import ht.platform.support.crypto.Randomness;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/** Secret key material: generation (prefix + 43 url-safe base64 chars of 32 random bytes) and storage hashes. */
public final class ApiKeys {


    private ApiKeys() { }

    public static String generate(String prefix) {
        byte[] bytes = new byte[32];
        Randomness.secure().nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Keys carry 256 bits of entropy, so a plain SHA-256 is a safe, fast lookup hash. */
    public static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** Last four characters, for display ("…abcd"); never the key itself. */
    public static String hint(String key) {
        return key.length() <= 4 ? "" : key.substring(key.length() - 4);
    }
}
