package ht.platform.webhooks.destination;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Classifies IP addresses by the network they belong to. IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, IPv4-compatible, 6to4, NAT64) are judged by the embedded address, so that such a form of a
 * private address is never {@link AddressClass#PUBLIC}.
 */
public final class AddressClassifier {
    private AddressClassifier() {
    }

    /** The class of an address; never null. */
    public static AddressClass classify(InetAddress address) {
        Objects.requireNonNull(address, "address");
        byte[] b = address.getAddress();
        return b.length == 4 ? classifyV4(b) : classifyV6(b);
    }

    /** True only for {@link AddressClass#PUBLIC}. */
    public static boolean isPublic(InetAddress address) {
        return classify(address) == AddressClass.PUBLIC;
    }

    /**
     * Parses an IP literal without any DNS lookup: dotted quad; IPv6 with or without brackets (a zone after
     * '%' is dropped); and the legacy IPv4 forms that libc and browsers accept: one decimal integer
     * ({@code 2130706433}), hex ({@code 0x7f000001}, {@code 0x7f.0.0.1}), octal ({@code 0177.0.0.1},
     * {@code 017700000001}) and short forms ({@code 127.1}, {@code 10.1.1}). IPv6 forms embedding IPv4 stay
     * IPv6 addresses (an {@link Inet6Address}).
     *
     * @return the address, or empty for a DNS name or anything that is not a valid literal
     */
    public static Optional<InetAddress> parseIpLiteral(String host) {
        if (host == null || host.isEmpty()) {
            return Optional.empty();
        }
        try {
            if (host.charAt(0) == '[') {
                if (host.length() < 2 || host.charAt(host.length() - 1) != ']') {
                    return Optional.empty();
                }
                return ipv6(IpLiterals.parseIpv6(host.substring(1, host.length() - 1)));
            }
            if (host.indexOf(':') >= 0) {
                return ipv6(IpLiterals.parseIpv6(host));
            }
            byte[] v4 = IpLiterals.parseIpv4(host);
            return v4 == null ? Optional.empty() : Optional.of(InetAddress.getByAddress(v4));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> ipv6(byte[] bytes) throws UnknownHostException {
        return bytes == null ? Optional.empty() : Optional.of(Inet6Address.getByAddress(null, bytes, -1));
    }

    static AddressClass classifyV4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        int a2 = b[2] & 0xff;
        if (a0 == 0) {
            return AddressClass.UNSPECIFIED;
        }
        if (a0 == 10 || (a0 == 172 && (a1 & 0xf0) == 16) || (a0 == 192 && a1 == 168)) {
            return AddressClass.PRIVATE;
        }
        if (a0 == 127) {
            return AddressClass.LOOPBACK;
        }
        if (a0 == 169 && a1 == 254) {
            return AddressClass.LINK_LOCAL;
        }
        if (a0 == 100 && (a1 & 0xc0) == 64) {
            return AddressClass.CGNAT;
        }
        if ((a0 & 0xf0) == 224) {
            return AddressClass.MULTICAST;
        }
        if (a0 == 255 && a1 == 255 && a2 == 255 && (b[3] & 0xff) == 255) {
            return AddressClass.BROADCAST;
        }
        if ((a0 & 0xf0) == 240
                || (a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2))
                || (a0 == 192 && a1 == 88 && a2 == 99)
                || (a0 == 198 && (a1 & 0xfe) == 18)
                || (a0 == 198 && a1 == 51 && a2 == 100)
                || (a0 == 203 && a1 == 0 && a2 == 113)) {
            return AddressClass.RESERVED;
        }
        return AddressClass.PUBLIC;
    }

    static AddressClass classifyV6(byte[] b) {
        if (allZero(b, 0, 12)) {
            if (allZero(b, 12, 15) && (b[15] == 0 || b[15] == 1)) {
                return b[15] == 0 ? AddressClass.UNSPECIFIED : AddressClass.LOOPBACK;
            }
            return embedded(b, 12, AddressClass.RESERVED);
        }
        if (allZero(b, 0, 10) && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
            return embedded(b, 12, AddressClass.IPV4_MAPPED);
        }
        if (allZero(b, 0, 8) && b[8] == (byte) 0xff && b[9] == (byte) 0xff && b[10] == 0 && b[11] == 0) {
            return embedded(b, 12, AddressClass.RESERVED);
        }
        if (startsWith(b, 0x00, 0x64, 0xff, 0x9b) && allZero(b, 4, 12)) {
            return embedded(b, 12, AddressClass.PUBLIC);
        }
        if (startsWith(b, 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01)) {
            if (allZero(b, 6, 12)) {
                return embedded(b, 12, AddressClass.RESERVED);
            }
            if (b[8] == 0 && allZero(b, 11, 16)) {
                return embeddedOr(new byte[] {b[6], b[7], b[9], b[10]}, AddressClass.RESERVED);
            }
            return AddressClass.RESERVED;
        }
        if (startsWith(b, 0x20, 0x02)) {
            return embeddedOr(Arrays.copyOfRange(b, 2, 6), AddressClass.PUBLIC);
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (first == 0xff) {
            return AddressClass.MULTICAST;
        }
        if ((first & 0xfe) == 0xfc) {
            return AddressClass.UNIQUE_LOCAL;
        }
        if (first == 0xfe && (second & 0xc0) == 0x80) {
            return AddressClass.LINK_LOCAL;
        }
        if (first == 0xfe && (second & 0xc0) == 0xc0) {
            return AddressClass.PRIVATE;
        }
        if ((first & 0xe0) != 0x20
                || startsWith(b, 0x20, 0x01, 0x0d, 0xb8)
                || startsWith(b, 0x20, 0x01, 0x00, 0x00)
                || (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x00 && ((b[3] & 0xf0) == 0x10 || (b[3] & 0xf0) == 0x20))) {
            return AddressClass.RESERVED;
        }
        return AddressClass.PUBLIC;
    }

    /** The class of the IPv4 address at {@code offset}, or {@code whenPublic} if that address is public. */
    private static AddressClass embedded(byte[] b, int offset, AddressClass whenPublic) {
        return embeddedOr(Arrays.copyOfRange(b, offset, offset + 4), whenPublic);
    }

    private static AddressClass embeddedOr(byte[] v4, AddressClass whenPublic) {
        AddressClass inner = classifyV4(v4);
        return inner == AddressClass.PUBLIC ? whenPublic : inner;
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWith(byte[] b, int... prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if ((b[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
