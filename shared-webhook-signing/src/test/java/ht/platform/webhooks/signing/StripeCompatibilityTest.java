package ht.platform.webhooks.signing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Checks the headers against a transcription of stripe-java's {@code Webhook.Signature.verifyHeader}
 * (split on ',', then on the first '=', collect {@code t} and every {@code v1}, HMAC-SHA256 hex of
 * {@code t + "." + payload} with the whole secret, constant-time string comparison).
 */
class StripeCompatibilityTest {
    private static final String SECRET = "whsec_stripe_style_0123456789";
    private static final String PAYLOAD = "{\"id\":\"evt_1\",\"object\":\"event\",\"type\":\"verification.verified\"}";
    private static final long TS = 1_763_800_000L;

    private static boolean stripeVerifyHeader(String payload, String sigHeader, String secret) {
        long timestamp = -1;
        List<String> signatures = new java.util.ArrayList<>();
        for (String item : sigHeader.split(",", -1)) {
            String[] parts = item.split("=", 2);
            if (parts.length == 2 && parts[0].equals("t")) {
                timestamp = Long.parseLong(parts[1]);
            } else if (parts.length == 2 && parts[0].equals("v1")) {
                signatures.add(parts[1]);
            }
        }
        if (timestamp <= 0 || signatures.isEmpty()) {
            return false;
        }
        String expected = WebhookSigner.hmacHex(secret, (timestamp + "." + payload).getBytes(StandardCharsets.UTF_8));
        return signatures.stream().anyMatch(s -> MessageDigest.isEqual(
                s.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, String> sign(SignatureScheme scheme, String... secrets) {
        return WebhookSigner.sign(scheme, List.of(secrets), TS, null, PAYLOAD.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void kycHeaderIsAStripeHeaderAsIs() {
        assertTrue(stripeVerifyHeader(PAYLOAD, sign(SignatureScheme.KYC, SECRET).get("Kyc-Signature"), SECRET));
        String rotated = sign(SignatureScheme.KYC, "whsec_new_one", SECRET).get("Kyc-Signature");
        assertTrue(stripeVerifyHeader(PAYLOAD, rotated, SECRET));
        assertTrue(stripeVerifyHeader(PAYLOAD, rotated, "whsec_new_one"));
        assertFalse(stripeVerifyHeader(PAYLOAD + " ", rotated, SECRET));
    }

    @Test
    void checkoutHeadersBecomeAStripeHeader() {
        Map<String, String> headers = sign(SignatureScheme.CHECKOUT, "whsec_new_one", SECRET);
        StringBuilder stripeHeader = new StringBuilder("t=" + headers.get("Checkout-Timestamp"));
        for (String signature : headers.get("Checkout-Signature").split(",")) {
            stripeHeader.append(",v1=").append(signature);
        }
        assertTrue(stripeVerifyHeader(PAYLOAD, stripeHeader.toString(), SECRET));
        assertTrue(stripeVerifyHeader(PAYLOAD, stripeHeader.toString(), "whsec_new_one"));
        String single = sign(SignatureScheme.CHECKOUT, SECRET).get("Checkout-Signature");
        assertTrue(stripeVerifyHeader(PAYLOAD, "t=" + TS + ",v1=" + single, SECRET));
    }
}
