package ht.platform.support.http;

/**
 * Text no request may carry into storage: NUL, which Postgres cannot keep in a text value (so an insert would fail
 * with 22021 and answer 500), and the other C0 control characters and DEL, which no form, header or id legitimately
 * holds. Tab, and in multi-line text also CR and LF, stay allowed.
 */
public final class ControlCharacters {

    private ControlCharacters() { }

    /** True when {@code text} holds a refused character; {@code singleLine} also refuses CR and LF. */
    public static boolean in(String text, boolean singleLine) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0 || c == 0x7f || c < 0x20 && c != '\t' && (singleLine || c != '\n' && c != '\r')) {
                return true;
            }
        }
        return false;
    }
}
