package ht.platform.webhooks.cli;

import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.VerificationResult;
import ht.platform.webhooks.signing.WebhookHeaders;
import ht.platform.webhooks.signing.WebhookVerifier;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One event of the feed as {@code listen} forwards it: verified with the listener's secrets first (a feed answer is
 * forwarded only when its signature holds), and with only the headers a webhook delivery has: {@code Content-Type},
 * {@code User-Agent} and the signing scheme's own ({@code Kyc-…}, {@code Checkout-…}, {@code X-Gateway-…}).
 */
record FeedEntry(byte[] body, Map<String, String> headers, String failure) {

    private static final Map<SignatureScheme, String> SIGNATURE = Map.of(SignatureScheme.KYC, WebhookHeaders.KYC_SIGNATURE,
            SignatureScheme.CHECKOUT, WebhookHeaders.CHECKOUT_SIGNATURE, SignatureScheme.GATEWAY, WebhookHeaders.GATEWAY_SIGNATURE);
    private static final Map<SignatureScheme, String> PREFIX = Map.of(SignatureScheme.KYC, "kyc-",
            SignatureScheme.CHECKOUT, "checkout-", SignatureScheme.GATEWAY, "x-gateway-");

    boolean valid() {
        return failure == null;
    }

    static FeedEntry of(Map<String, Object> event, List<String> secrets, Clock clock) {
        byte[] body = ((String) event.get("body")).getBytes(StandardCharsets.UTF_8);
        Map<String, String> given = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Object raw = event.get("headers");
        if (raw instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (k instanceof String name && v instanceof String value) {
                    given.put(name, value);
                }
            });
        }
        SignatureScheme scheme = SIGNATURE.entrySet().stream().filter(e -> given.containsKey(e.getValue()))
                .map(Map.Entry::getKey).findFirst().orElse(null);
        if (scheme == null) {
            return new FeedEntry(body, Map.of(), "no signature header");
        }
        VerificationResult result = new WebhookVerifier(scheme, secrets, WebhookVerifier.DEFAULT_TOLERANCE, clock)
                .verify(given::get, body);
        if (!result.valid()) {
            return new FeedEntry(body, Map.of(), String.valueOf(result.failure()));
        }
        Map<String, String> kept = new LinkedHashMap<>();
        given.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-type") || lower.equals("user-agent") || lower.startsWith(PREFIX.get(scheme))) {
                kept.put(name, value);
            }
        });
        return new FeedEntry(body, kept, null);
    }
}
