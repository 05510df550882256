package ht.platform.webhooks.destination;

/** Text to address bytes, without DNS. */
final class IpLiterals {
    private IpLiterals() {
    }

    /**
     * IPv4 in every form inet_aton and the WHATWG URL standard accept: 1 to 4 dot-separated parts, each
     * decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes; one trailing dot allowed.
     */
    static byte[] parseIpv4(String text) {
        String[] parts = text.split("\\.", -1);
        int count = parts.length;
        if (count > 1 && parts[count - 1].isEmpty()) {
            count--;
        }
        if (count < 1 || count > 4) {
            return null;
        }
        long value = 0;
        for (int i = 0; i < count; i++) {
            long part = parseNumber(parts[i]);
            if (part < 0) {
                return null;
            }
            if (i < count - 1) {
                if (part > 255) {
                    return null;
                }
                value |= part << (8 * (3 - i));
            } else {
                if (part >= 1L << (8 * (4 - i))) {
                    return null;
                }
                value |= part;
            }
        }
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    /** A non-negative number in decimal, octal or hex notation, -1 when it is not one or exceeds 32 bits. */
    static long parseNumber(String part) {
        int radix = 10;
        String digits = part;
        if (part.length() >= 2 && part.charAt(0) == '0' && (part.charAt(1) == 'x' || part.charAt(1) == 'X')) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0;
            }
        } else if (part.length() > 1 && part.charAt(0) == '0') {
            radix = 8;
            digits = part.substring(1);
        }
        if (digits.isEmpty()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digitValue(digits.charAt(i));
            if (d < 0 || d >= radix) {
                return -1;
            }
            value = value * radix + d;
            if (value > 0xFFFF_FFFFL) {
                return -1;
            }
        }
        return value;
    }

    /** True when the last label looks numeric (WHATWG "ends in a number"): then the host must be IPv4. */
    static boolean endsInNumber(String host) {
        String[] labels = host.split("\\.", -1);
        int last = labels.length - 1;
        if (last > 0 && labels[last].isEmpty()) {
            last--;
        }
        String label = labels[last];
        if (label.isEmpty()) {
            return false;
        }
        if (label.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return (label.startsWith("0x") || label.startsWith("0X"))
                && label.substring(2).chars().allMatch(c -> digitValue((char) c) >= 0);
    }

    /** IPv6 text (RFC 4291, optional trailing dotted quad, optional zone after '%') to 16 bytes. */
    static byte[] parseIpv6(String text) {
        String address = text;
        int zone = address.indexOf('%');
        if (zone >= 0) {
            if (zone == address.length() - 1) {
                return null;
            }
            address = address.substring(0, zone);
        }
        int gap = address.indexOf("::");
        if (gap >= 0 && address.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        int[] head = gap >= 0 ? parseGroups(address.substring(0, gap), false) : parseGroups(address, true);
        int[] tail = gap >= 0 ? parseGroups(address.substring(gap + 2), true) : new int[0];
        if (head == null || tail == null) {
            return null;
        }
        int total = head.length + tail.length;
        if (gap < 0 ? total != 8 : total > 7) {
            return null;
        }
        byte[] bytes = new byte[16];
        for (int i = 0; i < head.length; i++) {
            putGroup(bytes, i, head[i]);
        }
        for (int i = 0; i < tail.length; i++) {
            putGroup(bytes, 8 - tail.length + i, tail[i]);
        }
        return bytes;
    }

    private static int[] parseGroups(String text, boolean ipv4Allowed) {
        if (text.isEmpty()) {
            return new int[0];
        }
        String[] parts = text.split(":", -1);
        int last = parts.length - 1;
        boolean dotted = ipv4Allowed && parts[last].indexOf('.') >= 0;
        int[] groups = new int[dotted ? parts.length + 1 : parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (i == last && dotted) {
                byte[] v4 = parseStrictDottedQuad(parts[i]);
                if (v4 == null) {
                    return null;
                }
                groups[i] = ((v4[0] & 0xff) << 8) | (v4[1] & 0xff);
                groups[i + 1] = ((v4[2] & 0xff) << 8) | (v4[3] & 0xff);
            } else {
                String group = parts[i];
                if (group.isEmpty() || group.length() > 4) {
                    return null;
                }
                int value = 0;
                for (int j = 0; j < group.length(); j++) {
                    int d = digitValue(group.charAt(j));
                    if (d < 0) {
                        return null;
                    }
                    value = value * 16 + d;
                }
                groups[i] = value;
            }
        }
        return groups;
    }

    private static byte[] parseStrictDottedQuad(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || (part.length() > 1 && part.charAt(0) == '0')
                    || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    private static void putGroup(byte[] bytes, int index, int group) {
        bytes[2 * index] = (byte) (group >>> 8);
        bytes[2 * index + 1] = (byte) group;
    }

    private static int digitValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
