package ht.platform.support.testing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * Other spellings of one canonical path, the ways an attacker walks around a check that reads the raw path:
 * percent-encoded letters and dots, dot segments, doubled and encoded slashes, path parameters, case, trailing slashes.
 */
public final class PathSpellings {

    private PathSpellings() { }

    /** At least 20 spellings of {@code path} (which starts with "/" and has at least two segments), none equal to it. */
    public static List<String> of(String path) {
        String[] seg = path.substring(1).split("/");
        String first = seg[0];
        String rest = path.substring(first.length() + 1);
        String second = seg[1];
        String afterSecond = rest.substring(second.length() + 1);
        String head = first.substring(0, 1);
        String tail = first.substring(1);
        LinkedHashSet<String> out = new LinkedHashSet<>();
        out.add("/" + pct(head.charAt(0)) + tail + rest);
        out.add("/%25" + Integer.toHexString(head.charAt(0)) + tail + rest);
        out.add(percentAll("/" + first) + rest);
        out.add("/x/../" + first + rest);
        out.add("/x/%2e%2e/" + first + rest);
        out.add("/x/%2E%2E/" + first + rest);
        out.add("/x/.%2e/" + first + rest);
        out.add("/./" + first + rest);
        out.add("/%2e/" + first + rest);
        out.add("//" + first + rest);
        out.add("/" + first + "/./" + rest.substring(1));
        out.add("/" + first + "//" + rest.substring(1));
        out.add("/" + first + "/" + second + "/../" + second + afterSecond);
        out.add("/" + first.toUpperCase(Locale.ROOT) + rest);
        out.add("/" + head.toUpperCase(Locale.ROOT) + tail + rest);
        out.add("/" + first + ";x=1" + rest);
        out.add("/" + first + ";" + rest);
        out.add(path + ";jsessionid=1");
        out.add(path + "/");
        out.add(path + "//");
        out.add(path + "/.");
        out.add("/" + first + "%2F" + rest.substring(1));
        out.add("/" + first + "%2f" + rest.substring(1));
        out.add("/" + first + "%5C" + rest.substring(1));
        out.add("/" + first + "/" + percentAll(second) + afterSecond);
        out.add("/" + first + "/%2e/" + rest.substring(1));
        out.add("/" + first + "%00" + rest);
        out.add("/" + first + "%20" + rest);
        out.add("/" + first + rest + "%2F");
        out.remove(path);
        return new ArrayList<>(out);
    }

    private static String pct(char c) {
        return "%" + Integer.toHexString(c);
    }

    private static String percentAll(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c == '/' ? "/" : pct(c));
        }
        return b.toString();
    }
}
