package ht.platform.webhooks.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TestVectorsTest {

    static List<TestVector> vectors() {
        return TestVector.load();
    }

    @Test
    void vectorFileCoversEverySchemeAndRotation() {
        List<TestVector> all = vectors();
        for (SignatureScheme scheme : SignatureScheme.values()) {
            assertTrue(all.stream().anyMatch(v -> v.scheme() == scheme && v.secrets().size() == 1), scheme + " single");
            assertTrue(all.stream().anyMatch(v -> v.scheme() == scheme && v.secrets().size() == 2), scheme + " rotation");
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void signerReproducesThePublishedHeader(TestVector v) {
        Map<String, String> headers = WebhookSigner.sign(v.scheme(), v.secrets(), v.timestamp(), v.eventId(), v.rawBody());
        assertEquals(v.headerValue(), headers.get(v.headerName()));
        Map<String, String> expected = new LinkedHashMap<>(v.receivedHeaders());
        expected.remove("Content-Type");
        assertEquals(expected, headers);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(headers.keySet()), "header order");
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void verifierAcceptsThePublishedHeaderWithEachSecret(TestVector v) {
        Clock clock = Clock.fixed(Instant.ofEpochSecond(v.timestamp()).plusSeconds(30), ZoneOffset.UTC);
        for (String secret : v.secrets()) {
            VerificationResult result = new WebhookVerifier(v.scheme(), List.of(secret), Duration.ofMinutes(5), clock)
                    .verify(v.receivedHeaders(), v.rawBody());
            assertTrue(result.valid(), () -> v + " secret " + secret + ": " + result);
            assertEquals(v.timestamp(), result.timestamp());
            assertEquals(v.eventId(), result.eventId());
        }
        VerificationResult wrong = new WebhookVerifier(v.scheme(), List.of("whsec_not_the_secret"), Duration.ofMinutes(5), clock)
                .verify(v.receivedHeaders(), v.rawBody());
        assertEquals(VerificationResult.Failure.NO_MATCHING_SIGNATURE, wrong.failure());
    }

    @Test
    void hmacHexMatchesRfc4231() {
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                WebhookSigner.hmacHex("Jefe", "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8)));
        assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                WebhookSigner.hmacHex("\u000b".repeat(20), "Hi There".getBytes(StandardCharsets.UTF_8)));
    }
}
