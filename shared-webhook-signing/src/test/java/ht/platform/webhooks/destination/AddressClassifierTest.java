package ht.platform.webhooks.destination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressClassifierTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
        8.8.8.8,               PUBLIC
        1.1.1.1,               PUBLIC
        93.184.216.34,         PUBLIC
        127.0.0.1,             LOOPBACK
        127.255.255.254,       LOOPBACK
        10.0.0.1,              PRIVATE
        172.16.0.1,            PRIVATE
        172.31.255.255,        PRIVATE
        172.32.0.1,            PUBLIC
        172.15.0.1,            PUBLIC
        192.168.0.1,           PRIVATE
        169.254.169.254,       LINK_LOCAL
        100.64.0.1,            CGNAT
        100.127.255.255,       CGNAT
        100.128.0.1,           PUBLIC
        100.63.255.255,        PUBLIC
        0.0.0.0,               UNSPECIFIED
        0.1.2.3,               UNSPECIFIED
        255.255.255.255,       BROADCAST
        224.0.0.1,             MULTICAST
        239.255.255.250,       MULTICAST
        240.0.0.1,             RESERVED
        255.255.255.254,       RESERVED
        192.0.2.1,             RESERVED
        198.51.100.1,          RESERVED
        203.0.113.1,           RESERVED
        198.18.0.1,            RESERVED
        198.19.255.255,        RESERVED
        198.20.0.1,            PUBLIC
        ::1,                   LOOPBACK
        ::,                    UNSPECIFIED
        fc00::1,               UNIQUE_LOCAL
        fd12:3456::1,          UNIQUE_LOCAL
        fe80::1,               LINK_LOCAL
        febf::1,               LINK_LOCAL
        fec0::1,               PRIVATE
        ff02::1,               MULTICAST
        ::ffff:127.0.0.1,      LOOPBACK
        ::ffff:10.0.0.1,       PRIVATE
        ::ffff:169.254.169.254, LINK_LOCAL
        ::ffff:8.8.8.8,        IPV4_MAPPED
        ::127.0.0.1,           LOOPBACK
        ::10.0.0.1,            PRIVATE
        ::8.8.8.8,             RESERVED
        ::ffff:0:10.0.0.1,     PRIVATE
        2002:7f00:1::,         LOOPBACK
        2002:0a00:0001::,      PRIVATE
        2002:a9fe:a9fe::1,     LINK_LOCAL
        2002:0808:0808::1,     PUBLIC
        64:ff9b::10.0.0.1,     PRIVATE
        64:ff9b::7f00:1,       LOOPBACK
        64:ff9b::8.8.8.8,      PUBLIC
        64:ff9b:1::10.0.0.1,   PRIVATE
        64:ff9b:1:0a00:0001::, PRIVATE
        64:ff9b:1::8.8.8.8,    RESERVED
        2001:db8::1,           RESERVED
        2001::1,               RESERVED
        100::1,                RESERVED
        4000::1,               RESERVED
        2606:4700::1111,       PUBLIC
        2a00:1450:4001:81b::200e, PUBLIC
        """)
    void classifies(String literal, AddressClass expected) {
        InetAddress address = AddressClassifier.parseIpLiteral(literal).orElseThrow();
        assertEquals(expected, AddressClassifier.classify(address));
        assertEquals(expected == AddressClass.PUBLIC, AddressClassifier.isPublic(address));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(textBlock = """
        127.0.0.1,       127.0.0.1
        2130706433,      127.0.0.1
        0x7f000001,      127.0.0.1
        0X7F000001,      127.0.0.1
        0x7f.0.0.1,      127.0.0.1
        0x7f.0x0.0x0.0x1, 127.0.0.1
        0177.0.0.1,      127.0.0.1
        017700000001,    127.0.0.1
        127.1,           127.0.0.1
        127.0.1,         127.0.0.1
        10.1.1,          10.1.0.1
        10.65535,        10.0.255.255
        127.0.0.1.,      127.0.0.1
        0,               0.0.0.0
        0x,              0.0.0.0
        4294967295,      255.255.255.255
        [::1],           0:0:0:0:0:0:0:1
        ::1,             0:0:0:0:0:0:0:1
        [FE80::1%25eth0], fe80:0:0:0:0:0:0:1
        1:2:3:4:5:6:7:8, 1:2:3:4:5:6:7:8
        1::,             1:0:0:0:0:0:0:0
        ::ffff:127.0.0.1, 0:0:0:0:0:ffff:7f00:1
        """)
    void parsesLiterals(String text, String expected) {
        assertEquals(expected, AddressClassifier.parseIpLiteral(text).orElseThrow().getHostAddress());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "example.com", "localhost", "1.2.3.4.5", "1.2.3.256", "256.1.1.1", "1.16777216", "4294967296",
        "08.1.1.1", "0x1g", "1..1", ".1.1.1", "[::1", "[127.0.0.1]", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1::",
        "::ffff:0177.0.0.1", "::ffff:1.2.3", "12345::", "fe80::1%", "[]", "127.0.0.1 ", "١٢٧.0.0.1",
    })
    void refusesNonLiterals(String text) {
        assertEquals(Optional.empty(), AddressClassifier.parseIpLiteral(text));
    }

    @Test
    void nullIsNotALiteral() {
        assertFalse(AddressClassifier.parseIpLiteral(null).isPresent());
    }

    @Test
    void ipv6FormsEmbeddingIpv4StayIpv6() {
        InetAddress mapped = AddressClassifier.parseIpLiteral("[::ffff:8.8.8.8]").orElseThrow();
        assertInstanceOf(Inet6Address.class, mapped);
        assertFalse(AddressClassifier.isPublic(mapped));
        assertTrue(AddressClassifier.isPublic(AddressClassifier.parseIpLiteral("8.8.8.8").orElseThrow()));
    }

    @Test
    void classifiesAddressesFromTheJdk() throws Exception {
        assertEquals(AddressClass.LOOPBACK, AddressClassifier.classify(InetAddress.getLoopbackAddress()));
        assertEquals(AddressClass.PRIVATE, AddressClassifier.classify(InetAddress.getByAddress(new byte[] {10, 0, 0, 1})));
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = (byte) 192;
        mapped[13] = (byte) 168;
        assertEquals(AddressClass.PRIVATE, AddressClassifier.classify(Inet6Address.getByAddress(null, mapped, -1)));
    }
}
