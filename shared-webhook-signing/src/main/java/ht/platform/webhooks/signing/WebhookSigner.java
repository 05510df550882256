package ht.platform.webhooks.signing;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Produces the signature headers of a delivery. Stateless and thread-safe. */
public final class WebhookSigner {

    /** A provider lookup per signature costs more than the HMAC of a small body; a Mac is re-keyed by init. */
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    });

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private WebhookSigner() {
    }

    /**
     * Signs one delivery.
     *
     * @param scheme      the receiver's scheme
     * @param secrets     the secrets to sign with, usually one; during a rotation the new and the old secret,
     *                    each giving one signature, in this order
     * @param unixSeconds the delivery timestamp (Unix seconds)
     * @param eventId     the event id; required and signed for {@link SignatureScheme#GATEWAY} only
     *                    (visible ASCII without '.' or ','), ignored otherwise
     * @param rawBody     the exact bytes that will be sent as the body
     * @return only the signature-related headers, in a stable order: KYC {@code Kyc-Signature}; CHECKOUT
     *         {@code Checkout-Timestamp}, {@code Checkout-Signature}; GATEWAY {@code X-Gateway-Timestamp},
     *         {@code X-Gateway-Event-ID}, {@code X-Gateway-Signature}
     * @throws IllegalArgumentException on no secret, an empty secret, a negative timestamp or a bad gateway event id
     */
    public static Map<String, String> sign(SignatureScheme scheme, List<String> secrets, long unixSeconds,
                                           String eventId, byte[] rawBody) {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(rawBody, "rawBody");
        requireSecrets(secrets);
        if (unixSeconds < 0) {
            throw new IllegalArgumentException("timestamp must not be negative");
        }
        if (scheme == SignatureScheme.GATEWAY && !SignedPayload.isValidEventId(eventId)) {
            throw new IllegalArgumentException("gateway event id must be 1-255 visible ASCII characters without '.' or ','");
        }
        byte[] payload = SignedPayload.of(scheme, unixSeconds, eventId, rawBody);
        List<String> signatures = new ArrayList<>(secrets.size());
        for (String secret : secrets) {
            signatures.add(hmacHex(secret, payload));
        }
        String timestamp = Long.toString(unixSeconds);
        Map<String, String> headers = new LinkedHashMap<>();
        switch (scheme) {
            case KYC -> headers.put(WebhookHeaders.KYC_SIGNATURE, "t=" + timestamp + "," + joinV1(signatures));
            case CHECKOUT -> {
                headers.put(WebhookHeaders.CHECKOUT_TIMESTAMP, timestamp);
                headers.put(WebhookHeaders.CHECKOUT_SIGNATURE, String.join(",", signatures));
            }
            case GATEWAY -> {
                headers.put(WebhookHeaders.GATEWAY_TIMESTAMP, timestamp);
                headers.put(WebhookHeaders.GATEWAY_EVENT_ID, eventId);
                headers.put(WebhookHeaders.GATEWAY_SIGNATURE, joinV1(signatures));
            }
        }
        return headers;
    }

    /**
     * HMAC-SHA256 of {@code signedPayload}, lower-case hex. The key is the UTF-8 bytes of the whole secret
     * string, prefix included (as Stripe does).
     */
    public static String hmacHex(String secret, byte[] signedPayload) {
        return toHex(hmac(secret, signedPayload));
    }

    static byte[] hmac(String secret, byte[] signedPayload) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("secret must not be empty");
        }
        Objects.requireNonNull(signedPayload, "signedPayload");
        try {
            Mac mac = MACS.get();
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(signedPayload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    static List<String> requireSecrets(List<String> secrets) {
        Objects.requireNonNull(secrets, "secrets");
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one secret is required");
        }
        for (String secret : secrets) {
            if (secret == null || secret.isEmpty()) {
                throw new IllegalArgumentException("secrets must not be null or empty");
            }
        }
        return List.copyOf(secrets);
    }

    private static String joinV1(List<String> signatures) {
        StringBuilder sb = new StringBuilder();
        for (String signature : signatures) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append("v1=").append(signature);
        }
        return sb.toString();
    }

    private static String toHex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }
}
