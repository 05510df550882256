package ht.platform.support.ids;

import ht.platform.support.crypto.Randomness;

import java.time.Clock;
import java.util.HexFormat;

/** Object identifiers: a prefix plus random hex, or a prefix plus a 26-character ULID (Crockford base32). */
public final class Ids {

    private static final char[] CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

    private Ids() { }

    public static String hex(String prefix, int bytes) {
        byte[] b = new byte[bytes];
        Randomness.secure().nextBytes(b);
        return prefix + HexFormat.of().formatHex(b);
    }

    public static String ulid(String prefix, Clock clock) {
        return prefix + ulid(clock.millis());
    }

    static String ulid(long millis) {
        char[] out = new char[26];
        long time = millis;
        for (int i = 9; i >= 0; i--) {
            out[i] = CROCKFORD[(int) (time & 31)];
            time >>>= 5;
        }
        byte[] random = new byte[10];
        Randomness.secure().nextBytes(random);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 5; i++) {
            hi = (hi << 8) | (random[i] & 0xff);
            lo = (lo << 8) | (random[i + 5] & 0xff);
        }
        for (int i = 17; i >= 10; i--) {
            out[i] = CROCKFORD[(int) (hi & 31)];
            hi >>>= 5;
        }
        for (int i = 25; i >= 18; i--) {
            out[i] = CROCKFORD[(int) (lo & 31)];
            lo >>>= 5;
        }
        return new String(out);
    }

    /** True when {@code id} is {@code prefix} followed by a well-formed upper-case ULID. */
    public static boolean isUlid(String id, String prefix) {
        if (id == null || !id.startsWith(prefix) || id.length() != prefix.length() + 26) {
            return false;
        }
        if (id.charAt(prefix.length()) > '7') {
            return false;
        }
        for (int i = prefix.length(); i < id.length(); i++) {
            if (java.util.Arrays.binarySearch(CROCKFORD, id.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }
}
