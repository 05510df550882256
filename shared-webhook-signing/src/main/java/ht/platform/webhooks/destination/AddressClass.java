package ht.platform.webhooks.destination;

/** What kind of network an IP address belongs to. Only {@link #PUBLIC} may receive webhooks by default. */
public enum AddressClass {
    /** Globally routable unicast. */
    PUBLIC,
    /** 127.0.0.0/8, ::1. */
    LOOPBACK,
    /** 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, deprecated IPv6 site-local fec0::/10. */
    PRIVATE,
    /** 169.254.0.0/16 (cloud metadata), fe80::/10. */
    LINK_LOCAL,
    /** 100.64.0.0/10, carrier-grade NAT. */
    CGNAT,
    /** 0.0.0.0/8, ::. */
    UNSPECIFIED,
    /** 255.255.255.255. */
    BROADCAST,
    /** 224.0.0.0/4, ff00::/8. */
    MULTICAST,
    /** fc00::/7. */
    UNIQUE_LOCAL,
    /** ::ffff:0:0/96 embedding a public IPv4 address (a mapped address embedding another class gets that class). */
    IPV4_MAPPED,
    /**
     * 240.0.0.0/4, documentation, benchmarking and protocol ranges (192.0.0.0/24, 192.0.2.0/24,
     * 192.88.99.0/24, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 100::/64), Teredo,
     * ORCHID, deprecated IPv4-compatible IPv6, local-use NAT64 64:ff9b:1::/48 and IPv6 outside 2000::/3.
     */
    RESERVED
}
