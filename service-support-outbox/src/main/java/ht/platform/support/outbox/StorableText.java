package ht.platform.support.outbox;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Text that a Postgres {@code text} column can keep whatever a receiver sent: valid UTF-8 (malformed bytes become
 * U+FFFD), no NUL (Postgres refuses {@code \u0000} in text), bounded in length.
 */
public final class StorableText {

    private StorableText() { }

    /** The bytes as storable text; a cut multi-byte character at the end becomes U+FFFD. */
    public static String decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes));
            return clean(chars.toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            return clean(new String(bytes, StandardCharsets.UTF_8));
        }
    }

    /** {@code s} without NUL and without lone surrogates, at most {@code max} characters; null stays null. */
    public static String of(String s, int max) {
        if (s == null) {
            return null;
        }
        String clean = clean(s);
        if (clean.length() <= max) {
            return clean;
        }
        int end = Character.isHighSurrogate(clean.charAt(max - 1)) ? max - 1 : max;
        return clean.substring(0, end);
    }

    private static String clean(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean bad = c == '\u0000'
                    || (Character.isHighSurrogate(c) && (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))))
                    || (Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1))));
            if (bad && out == null) {
                out = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
            }
        }
        return out == null ? s : out.toString();
    }
}
