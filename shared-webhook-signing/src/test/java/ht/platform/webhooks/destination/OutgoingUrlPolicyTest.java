package ht.platform.webhooks.destination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutgoingUrlPolicyTest {
    private static final OutgoingUrlPolicy STRICT = new OutgoingUrlPolicy(false);
    private static final OutgoingUrlPolicy LENIENT = new OutgoingUrlPolicy(true);

    @ParameterizedTest(name = "[{index}] private={0} {1} -> {2}")
    @CsvSource(textBlock = """
        false, https://example.com/webhooks,                       true
        false, https://hooks.example.com:8443/in?source=gw,         true
        false, https://example.com:443/,                            true
        false, https://example.com:65535/,                          true
        false, https://EXAMPLE.com./hooks,                          true
        false, https://xn--bcher-kva.example/hooks,                 true
        false, HTTPS://example.com/,                                true
        false, http://example.com/webhooks,                         false
        false, ftp://example.com/,                                  false
        false, /relative/path,                                      false
        false, https:example.com,                                   false
        false, https://,                                            false
        false, https://user:pass@example.com/,                      false
        false, https://user@example.com/,                           false
        false, https://example.com/#fragment,                       false
        false, https://example.com:0/,                              false
        false, https://example.com:65536/,                          false
        false, https://example.com:/,                               false
        false, https://exa%6Dple.com/,                              false
        false, https://example..com/,                               false
        false, https://-bad.example.com/,                           false
        false, https://localhost/,                                  false
        false, https://LocalHost./,                                 false
        false, https://api.localhost/,                              false
        false, https://printer.local/,                              false
        false, https://metadata.google.internal/computeMetadata/v1, false
        false, https://db.internal/,                                false
        false, https://intranet/,                                   false
        false, https://127.0.0.1/,                                  false
        false, https://127.0.0.1:8443/hooks,                        false
        false, https://127.1/,                                      false
        false, https://2130706433/,                                 false
        false, https://0x7f000001/,                                 false
        false, https://0x7f.0.0.1/,                                 false
        false, https://0177.0.0.1/,                                 false
        false, https://017700000001/,                               false
        false, https://127.0.0.1./,                                 false
        false, https://0.0.0.0/,                                    false
        false, https://0/,                                          false
        false, https://10.0.0.1/,                                   false
        false, https://10.1.1/,                                     false
        false, https://172.16.0.1/,                                 false
        false, https://172.31.255.254/,                             false
        false, https://172.15.255.254/,                             true
        false, https://172.32.0.1/,                                 true
        false, https://192.168.1.10/,                               false
        false, https://169.254.169.254/latest/meta-data/,           false
        false, https://100.64.0.1/,                                 false
        false, https://100.127.255.254/,                            false
        false, https://100.128.0.1/,                                true
        false, https://224.0.0.1/,                                  false
        false, https://255.255.255.255/,                            false
        false, https://240.0.0.1/,                                  false
        false, https://192.0.2.10/,                                 false
        false, https://1.2.3.999/,                                  false
        false, https://8.8.8.8/,                                    true
        false, https://8.8.8.8:8443/in,                             true
        false, https://[::1]/,                                      false
        false, https://[::1]:8443/,                                 false
        false, https://[::]/,                                       false
        false, https://[fc00::1]/,                                  false
        false, https://[fd12::1]/,                                  false
        false, https://[fe80::1]/,                                  false
        false, https://[fe80::1%25eth0]/,                           false
        false, https://[ff02::1]/,                                  false
        false, https://[::ffff:127.0.0.1]/,                         false
        false, https://[::ffff:10.0.0.1]/,                          false
        false, https://[::ffff:7f00:1]/,                            false
        false, https://[::ffff:8.8.8.8]/,                           false
        false, https://[::127.0.0.1]/,                              false
        false, https://[2002:7f00:1::]/,                            false
        false, https://[2002:0a00:0001::]/,                         false
        false, https://[2002:0808:0808::1]/,                        true
        false, https://[64:ff9b::10.0.0.1]/,                        false
        false, https://[64:ff9b::7f00:1]/,                          false
        false, https://[64:ff9b::8.8.8.8]/,                         true
        false, https://[2606:4700::1111]/,                          true
        false, https://[2606:4700::1111]:8443/,                     true
        false, https://[2001:db8::1]/,                              false
        false, https://[2606:4700::1111/,                           false
        false, https://[not-an-ip]/,                                false
        true,  http://localhost:8080/hooks,                         true
        true,  https://localhost/,                                  true
        true,  http://127.0.0.1:9000/in,                            true
        true,  http://10.0.0.5/,                                    true
        true,  https://169.254.169.254/,                            true
        true,  http://[::1]:8080/,                                  true
        true,  http://host.docker.internal:8080/,                   true
        true,  http://receiver/,                                    true
        true,  http://example.com/,                                 true
        true,  ftp://localhost/,                                    false
        true,  http://user:pw@localhost/,                           false
        true,  http://1.2.3.999/,                                   false
        true,  http://localhost:99999/,                             false
        """)
    void urlTable(boolean allowPrivateTargets, String url, boolean expected) {
        UrlDecision decision = new OutgoingUrlPolicy(allowPrivateTargets).checkUrl(url);
        assertEquals(expected, decision.allowed(), () -> url + ": " + decision.reason());
        if (expected) {
            assertNull(decision.reason());
            assertEquals(URI.create(url), decision.uri());
        } else {
            assertNotNull(decision.reason());
            assertNull(decision.uri());
        }
    }

    @Test
    void blankLongAndInvalidUrlsAreRefused() {
        assertFalse(STRICT.checkUrl(null).allowed());
        assertFalse(STRICT.checkUrl(" ").allowed());
        assertFalse(STRICT.checkUrl("https://example.com/a b").allowed());
        String base = "https://example.com/";
        assertTrue(STRICT.checkUrl(base + "a".repeat(2048 - base.length())).allowed());
        assertFalse(STRICT.checkUrl(base + "a".repeat(2049 - base.length())).allowed());
    }

    @Test
    void reasonsSayWhy() {
        assertEquals("URL must use https", STRICT.checkUrl("http://example.com/").reason());
        assertTrue(STRICT.checkUrl("https://0x7f000001/").reason().contains("127.0.0.1"));
        assertTrue(STRICT.checkUrl("https://0x7f000001/").reason().contains("loopback"));
        assertTrue(STRICT.checkUrl("https://u:p@example.com/").reason().contains("password"));
    }

    @Test
    void checkResolvedRefusesWhenAnyAddressIsPrivate() throws Exception {
        List<InetAddress> mixed = List.of(ip("93.184.216.34"), ip("10.0.0.7"), ip("2606:4700::1111"));
        AddressDecision decision = STRICT.checkResolved("rebind.example.com", mixed);
        assertFalse(decision.allowed());
        assertNull(decision.address());
        assertTrue(decision.reason().contains("10.0.0.7"), decision.reason());

        assertFalse(STRICT.checkResolved("x.example.com", List.of(ip("8.8.8.8"), ip("::1"))).allowed());
        assertFalse(STRICT.checkResolved("x.example.com", List.of(ip("169.254.169.254"))).allowed());
        assertTrue(LENIENT.checkResolved("rebind.example.com", mixed).allowed());
        assertEquals(ip("93.184.216.34"), LENIENT.checkResolved("rebind.example.com", mixed).address());
    }

    @Test
    void checkResolvedReturnsTheFirstAddressWhenAllArePublic() throws Exception {
        List<InetAddress> resolved = List.of(ip("2606:4700::1111"), ip("1.1.1.1"));
        AddressDecision decision = STRICT.checkResolved("one.example.com", resolved);
        assertTrue(decision.allowed());
        assertNull(decision.reason());
        assertEquals(ip("2606:4700::1111"), decision.address());
    }

    @Test
    void checkResolvedRefusesNothingResolvedEmbeddedPrivateAndInternalNames() throws Exception {
        assertFalse(STRICT.checkResolved("a.example.com", List.of()).allowed());
        assertFalse(LENIENT.checkResolved("a.example.com", List.of()).allowed());
        InetAddress mapped = AddressClassifier.parseIpLiteral("::ffff:10.0.0.1").orElseThrow();
        assertFalse(STRICT.checkResolved("a.example.com", List.of(mapped)).allowed());
        assertFalse(STRICT.checkResolved("localhost", List.of(ip("8.8.8.8"))).allowed());
        assertTrue(LENIENT.checkResolved("localhost", List.of(ip("127.0.0.1"))).allowed());
        assertTrue(LENIENT.allowPrivateTargets());
        assertFalse(STRICT.allowPrivateTargets());
    }

    private static InetAddress ip(String literal) {
        return AddressClassifier.parseIpLiteral(literal).orElseThrow();
    }
}
