package ht.platform.support.http;

import java.util.HexFormat;

/**
 * The one spelling of a path every service accepts: what the router, the checks bound to resources, the body limit
 * and the access log all see. A path that names a resource in another way (dot segments, doubled or encoded
 * slashes, percent-encoded letters, digits or dots, ";" parameters, backslashes, control bytes) names nothing: 404.
 * Percent-encoding stays allowed for the characters that need it (a space, "@", "%", non-ASCII in an id).
 */
public final class CanonicalPaths {

    private CanonicalPaths() { }

    public static boolean isCanonical(String raw, String normalized) {
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '/' || !raw.equals(normalized)) {
            return false;
        }
        if (raw.contains("//") || raw.indexOf(';') >= 0 || raw.indexOf('\\') >= 0) {
            return false;
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x21 || c == 0x7f) {
                return false;
            }
            if (c == '%') {
                int decoded = i + 2 < raw.length() ? hex(raw.charAt(i + 1), raw.charAt(i + 2)) : -1;
                if (decoded < 0 || unreserved(decoded) || decoded == '/' || decoded == '\\' || decoded == ';'
                        || decoded < 0x20 || decoded == 0x7f) {
                    return false;
                }
            }
        }
        return !hasDotSegment(raw);
    }

    private static boolean hasDotSegment(String raw) {
        int start = 0;
        while (start <= raw.length()) {
            int end = raw.indexOf('/', start);
            if (end < 0) {
                end = raw.length();
            }
            int length = end - start;
            if ((length == 1 || length == 2) && raw.charAt(start) == '.' && raw.charAt(end - 1) == '.') {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** The path for an error message: at most 200 characters, control bytes shown as '?'. */
    public static String printable(String raw) {
        String shown = raw == null ? "" : raw.length() > 200 ? raw.substring(0, 200) + "…" : raw;
        for (int i = 0; i < shown.length(); i++) {
            if (control(shown.charAt(i))) {
                char[] chars = shown.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    if (control(chars[j])) {
                        chars[j] = '?';
                    }
                }
                return new String(chars);
            }
        }
        return shown;
    }

    /** What {@code \p{Cntrl}} matches: C0 controls and DEL. */
    private static boolean control(char c) {
        return c < 0x20 || c == 0x7f;
    }

    private static boolean unreserved(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static int hex(char a, char b) {
        return HexFormat.isHexDigit(a) && HexFormat.isHexDigit(b)
                ? HexFormat.fromHexDigit(a) << 4 | HexFormat.fromHexDigit(b) : -1;
    }
}
