package ht.platform.webhooks.signing;

import static ht.platform.webhooks.signing.SignatureScheme.CHECKOUT;
import static ht.platform.webhooks.signing.SignatureScheme.GATEWAY;
import static ht.platform.webhooks.signing.SignatureScheme.KYC;
import static ht.platform.webhooks.signing.VerificationResult.Failure.MALFORMED_HEADER;
import static ht.platform.webhooks.signing.VerificationResult.Failure.MISSING_HEADER;
import static ht.platform.webhooks.signing.VerificationResult.Failure.NO_MATCHING_SIGNATURE;
import static ht.platform.webhooks.signing.VerificationResult.Failure.TIMESTAMP_OUTSIDE_TOLERANCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ht.platform.webhooks.signing.VerificationResult.Failure;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookVerifierTest {
    private static final long NOW = 1_763_800_000L;
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);
    private static final String SECRET = "whsec_primary_3c4d5e6f";
    private static final String OLD_SECRET = "whsec_previous_7a8b9c0d";
    private static final String EVENT_ID = "evt_00112233445566778899aabbccddeeff";
    private static final byte[] BODY = "{\"id\":\"evt_1\",\"type\":\"payment.succeeded\",\"amount\":1000}"
            .getBytes(StandardCharsets.UTF_8);

    private static WebhookVerifier verifier(SignatureScheme scheme, String... secrets) {
        return new WebhookVerifier(scheme, List.of(secrets), Duration.ofMinutes(5), CLOCK);
    }

    private static Map<String, String> signed(SignatureScheme scheme, long timestamp, String... secrets) {
        return new HashMap<>(WebhookSigner.sign(scheme, List.of(secrets), timestamp, EVENT_ID, BODY));
    }

    private static Failure failureOf(SignatureScheme scheme, Map<String, String> headers, byte[] body) {
        VerificationResult result = verifier(scheme, SECRET).verify(headers, body);
        assertFalse(result.valid());
        return result.failure();
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void acceptsItsOwnSignature(SignatureScheme scheme) {
        VerificationResult result = verifier(scheme, SECRET).verify(signed(scheme, NOW, SECRET), BODY);
        assertEquals(VerificationResult.ok(NOW, scheme == GATEWAY ? EVENT_ID : null), result);
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void tamperedBodyDoesNotMatch(SignatureScheme scheme) {
        byte[] tampered = BODY.clone();
        tampered[tampered.length - 3] = '9';
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(scheme, signed(scheme, NOW, SECRET), tampered));
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(scheme, signed(scheme, NOW, SECRET), new byte[0]));
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void tamperedTimestampDoesNotMatch(SignatureScheme scheme) {
        Map<String, String> headers = signed(scheme, NOW - 60, SECRET);
        String forged = Long.toString(NOW - 59);
        switch (scheme) {
            case KYC -> headers.put("Kyc-Signature", headers.get("Kyc-Signature").replace("t=" + (NOW - 60), "t=" + forged));
            case CHECKOUT -> headers.put("Checkout-Timestamp", forged);
            case GATEWAY -> headers.put("X-Gateway-Timestamp", forged);
        }
        VerificationResult result = verifier(scheme, SECRET).verify(headers, BODY);
        assertEquals(NO_MATCHING_SIGNATURE, result.failure());
        assertEquals(NOW - 59, result.timestamp());
    }

    @Test
    void tamperedGatewayEventIdDoesNotMatch() {
        Map<String, String> headers = signed(GATEWAY, NOW, SECRET);
        headers.put("X-Gateway-Event-ID", "evt_00112233445566778899aabbccddeefe");
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(GATEWAY, headers, BODY));
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void otherSecretDoesNotMatch(SignatureScheme scheme) {
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(scheme, signed(scheme, NOW, "whsec_someone_else"), BODY));
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(scheme, signed(scheme, NOW, SECRET.substring(6)), BODY));
    }

    @ParameterizedTest
    @CsvSource({
        "KYC, Kyc-Signature",
        "CHECKOUT, Checkout-Timestamp",
        "CHECKOUT, Checkout-Signature",
        "GATEWAY, X-Gateway-Timestamp",
        "GATEWAY, X-Gateway-Event-ID",
        "GATEWAY, X-Gateway-Signature",
    })
    void missingOrBlankHeader(SignatureScheme scheme, String header) {
        Map<String, String> headers = signed(scheme, NOW, SECRET);
        headers.remove(header);
        assertEquals(MISSING_HEADER, failureOf(scheme, headers, BODY));
        headers.put(header, "  ");
        assertEquals(MISSING_HEADER, failureOf(scheme, headers, BODY));
        assertEquals(MISSING_HEADER, failureOf(scheme, Map.of(), BODY));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "garbage",
        "t=1763800000,v1",
        "t=,v1=%s",
        "t=abc,v1=%s",
        "t=-1763800000,v1=%s",
        "t=1763800000.5,v1=%s",
        "v1=%s",
        "t=1763800000,t=1763800000,v1=%s",
        "t=1763800000,=x,v1=%s",
        "t=1763800000,v1=xyz",
        "t=1763800000,v1=%sab",
        "t=1763800000,v1=%.62sgg",
        "t=99999999999999999999,v1=%s",
    })
    void malformedKycHeader(String template) {
        String signature = signed(KYC, NOW, SECRET).get("Kyc-Signature").substring("t=1763800000,v1=".length());
        Map<String, String> headers = Map.of("Kyc-Signature", String.format(Locale.ROOT, template, signature));
        assertEquals(MALFORMED_HEADER, failureOf(KYC, headers, BODY));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "CHECKOUT; Checkout-Timestamp; abc",
        "CHECKOUT; Checkout-Timestamp; 17638e5",
        "CHECKOUT; Checkout-Timestamp; t=1763800000",
        "CHECKOUT; Checkout-Signature; zz",
        "CHECKOUT; Checkout-Signature; v1=0123",
        "CHECKOUT; Checkout-Signature; 0123456789abcdef",
        "GATEWAY; X-Gateway-Signature; garbage",
        "GATEWAY; X-Gateway-Signature; v1=nothex",
        "GATEWAY; X-Gateway-Timestamp; yesterday",
        "GATEWAY; X-Gateway-Event-ID; evt.1",
        "GATEWAY; X-Gateway-Event-ID; evt 1",
        "GATEWAY; X-Gateway-Event-ID; évt_1",
    })
    void malformedCheckoutAndGatewayHeaders(SignatureScheme scheme, String header, String value) {
        Map<String, String> headers = signed(scheme, NOW, SECRET);
        headers.put(header, value);
        assertEquals(MALFORMED_HEADER, failureOf(scheme, headers, BODY));
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void toleranceHoldsInThePastAndTheFuture(SignatureScheme scheme) {
        WebhookVerifier verifier = verifier(scheme, SECRET);
        assertTrue(verifier.verify(signed(scheme, NOW - 300, SECRET), BODY).valid());
        assertTrue(verifier.verify(signed(scheme, NOW + 300, SECRET), BODY).valid());
        VerificationResult past = verifier.verify(signed(scheme, NOW - 301, SECRET), BODY);
        assertEquals(TIMESTAMP_OUTSIDE_TOLERANCE, past.failure());
        assertEquals(NOW - 301, past.timestamp());
        assertEquals(TIMESTAMP_OUTSIDE_TOLERANCE, verifier.verify(signed(scheme, NOW + 301, SECRET), BODY).failure());
        assertEquals(TIMESTAMP_OUTSIDE_TOLERANCE, verifier.verify(signed(scheme, 0, SECRET), BODY).failure());
    }

    @Test
    void customToleranceAndMovingClock() {
        Map<String, String> headers = signed(GATEWAY, NOW, SECRET);
        Clock later = Clock.offset(CLOCK, Duration.ofSeconds(61));
        assertEquals(TIMESTAMP_OUTSIDE_TOLERANCE,
                new WebhookVerifier(GATEWAY, List.of(SECRET), Duration.ofMinutes(1), later).verify(headers, BODY).failure());
        assertTrue(new WebhookVerifier(GATEWAY, List.of(SECRET), Duration.ofMinutes(2), later).verify(headers, BODY).valid());
    }

    @Test
    void defaultConstructorUsesTheSystemClock() {
        long now = Instant.now().getEpochSecond();
        assertTrue(new WebhookVerifier(KYC, List.of(SECRET)).verify(signed(KYC, now, SECRET), BODY).valid());
        assertEquals(TIMESTAMP_OUTSIDE_TOLERANCE,
                new WebhookVerifier(KYC, List.of(SECRET)).verify(signed(KYC, now - 600, SECRET), BODY).failure());
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void rotationIsAcceptedWithEitherSecret(SignatureScheme scheme) {
        Map<String, String> both = signed(scheme, NOW, SECRET, OLD_SECRET);
        assertTrue(verifier(scheme, SECRET).verify(both, BODY).valid());
        assertTrue(verifier(scheme, OLD_SECRET).verify(both, BODY).valid());
        assertTrue(verifier(scheme, "whsec_x", OLD_SECRET).verify(both, BODY).valid());
        assertEquals(NO_MATCHING_SIGNATURE, verifier(scheme, "whsec_x").verify(both, BODY).failure());
        assertTrue(verifier(scheme, SECRET, OLD_SECRET).verify(signed(scheme, NOW, OLD_SECRET), BODY).valid());
    }

    @Test
    void rotationHeadersCarryOneSignaturePerSecretInOrder() {
        String first = signed(KYC, NOW, SECRET).get("Kyc-Signature").substring(13);
        String second = signed(KYC, NOW, OLD_SECRET).get("Kyc-Signature").substring(13);
        assertEquals("t=" + NOW + "," + first + "," + second, signed(KYC, NOW, SECRET, OLD_SECRET).get("Kyc-Signature"));
    }

    @Test
    void unknownSchemesAndWhitespaceAreIgnored() {
        String v1 = signed(KYC, NOW, SECRET).get("Kyc-Signature").substring(16);
        String kyc = "t=" + NOW + ", v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39 , v1=" + v1 + ",";
        assertTrue(verifier(KYC, SECRET).verify(Map.of("Kyc-Signature", kyc), BODY).valid());

        Map<String, String> gateway = signed(GATEWAY, NOW, SECRET);
        gateway.put("X-Gateway-Signature", "v2=whatever, " + gateway.get("X-Gateway-Signature"));
        assertTrue(verifier(GATEWAY, SECRET).verify(gateway, BODY).valid());
    }

    @ParameterizedTest
    @EnumSource(SignatureScheme.class)
    void headerWithoutV1SignatureMatchesNothing(SignatureScheme scheme) {
        Map<String, String> headers = signed(scheme, NOW, SECRET);
        switch (scheme) {
            case KYC -> headers.put("Kyc-Signature", "t=" + NOW + ",v0=abc");
            case CHECKOUT -> headers.put("Checkout-Signature", ",");
            case GATEWAY -> headers.put("X-Gateway-Signature", "v0=abc");
        }
        assertEquals(NO_MATCHING_SIGNATURE, failureOf(scheme, headers, BODY));
    }

    @Test
    void upperCaseHexIsAccepted() {
        Map<String, String> headers = signed(CHECKOUT, NOW, SECRET);
        headers.put("Checkout-Signature", headers.get("Checkout-Signature").toUpperCase(Locale.ROOT));
        assertTrue(verifier(CHECKOUT, SECRET).verify(headers, BODY).valid());
    }

    @Test
    void headerNamesAreMatchedIgnoringCase() {
        Map<String, String> lower = new HashMap<>();
        signed(GATEWAY, NOW, SECRET).forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        assertTrue(verifier(GATEWAY, SECRET).verify(lower, BODY).valid());

        Map<String, String> upper = new HashMap<>();
        signed(CHECKOUT, NOW, SECRET).forEach((k, v) -> upper.put(k.toUpperCase(Locale.ROOT), v));
        assertTrue(verifier(CHECKOUT, SECRET).verify(upper, BODY).valid());
    }

    @Test
    void functionLookupIsUsedAsGiven() {
        Map<String, String> headers = signed(KYC, NOW, SECRET);
        assertTrue(verifier(KYC, SECRET).verify(headers::get, BODY).valid());
        assertEquals(MISSING_HEADER, verifier(KYC, SECRET).verify(name -> null, BODY).failure());
    }

    @Test
    void repeatedHeaderLinesCombineLikeHttp() {
        Map<String, String> headers = signed(CHECKOUT, NOW, SECRET);
        String[] both = signed(CHECKOUT, NOW, OLD_SECRET, SECRET).get("Checkout-Signature").split(",");
        headers.put("Checkout-Signature", both[0]);
        headers.put("checkout-signature", both[1]);
        assertTrue(verifier(CHECKOUT, SECRET).verify(headers, BODY).valid());

        Map<String, String> twoTimestamps = signed(GATEWAY, NOW, SECRET);
        twoTimestamps.put("x-gateway-timestamp", Long.toString(NOW));
        assertEquals(MALFORMED_HEADER, failureOf(GATEWAY, twoTimestamps, BODY));
    }

    @Test
    void signedHeadersComeInAStableOrder() {
        assertEquals(List.of("Kyc-Signature"),
                List.copyOf(WebhookSigner.sign(KYC, List.of(SECRET), NOW, null, BODY).keySet()));
        assertEquals(List.of("Checkout-Timestamp", "Checkout-Signature"),
                List.copyOf(WebhookSigner.sign(CHECKOUT, List.of(SECRET), NOW, EVENT_ID, BODY).keySet()));
        assertEquals(List.of("X-Gateway-Timestamp", "X-Gateway-Event-ID", "X-Gateway-Signature"),
                List.copyOf(WebhookSigner.sign(GATEWAY, List.of(SECRET), NOW, EVENT_ID, BODY).keySet()));
    }

    @Test
    void signerRejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(KYC, List.of(), NOW, null, BODY));
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(KYC, List.of(""), NOW, null, BODY));
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(KYC, List.of(SECRET), -1, null, BODY));
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(GATEWAY, List.of(SECRET), NOW, null, BODY));
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(GATEWAY, List.of(SECRET), NOW, "evt.1", BODY));
        assertThrows(IllegalArgumentException.class, () -> WebhookSigner.sign(GATEWAY, List.of(SECRET), NOW, "evt,1", BODY));
        assertThrows(IllegalArgumentException.class, () -> new WebhookVerifier(KYC, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new WebhookVerifier(KYC, List.of(SECRET), Duration.ofSeconds(-1), CLOCK));
    }

    @Test
    void resultFactories() {
        VerificationResult failed = VerificationResult.failed(MISSING_HEADER);
        assertFalse(failed.valid());
        assertEquals(0, failed.timestamp());
        assertNull(failed.eventId());
        assertThrows(IllegalArgumentException.class, () -> new VerificationResult(true, MISSING_HEADER, 0, null));
        assertThrows(IllegalArgumentException.class, () -> new VerificationResult(false, null, 0, null));
    }
}
