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
import java.util.Set;
import java.util.TreeMap;

/**
 * One event of the feed as {@code listen} forwards it: verified with the listener's secrets first (a feed answer is
 * forwarded only when its signature holds), and with only {@code Content-Type} and the named headers of the signing
 * scheme's deliveries (its signature, timestamp and event id and type), never another header the feed carries.
 */
record FeedEntry(byte[] body, Map<String, String> headers, String failure) {

    private static final Map<SignatureScheme, String> SIGNATURE = Map.of(SignatureScheme.KYC, WebhookHeaders.KYC_SIGNATURE,
            SignatureScheme.CHECKOUT, WebhookHeaders.CHECKOUT_SIGNATURE, SignatureScheme.GATEWAY, WebhookHeaders.GATEWAY_SIGNATURE);
    private static final Map<SignatureScheme, Set<String>> FORWARDED = Map.of(
            SignatureScheme.KYC, names(WebhookHeaders.KYC_SIGNATURE, "Kyc-Event-Id"),
            SignatureScheme.CHECKOUT, names(WebhookHeaders.CHECKOUT_TIMESTAMP, WebhookHeaders.CHECKOUT_SIGNATURE,
                    "Checkout-Event-Id", "Checkout-Event-Type"),
            SignatureScheme.GATEWAY, names(WebhookHeaders.GATEWAY_TIMESTAMP, WebhookHeaders.GATEWAY_EVENT_ID,
                    WebhookHeaders.GATEWAY_SIGNATURE, "X-Gateway-Event"));

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
            if (FORWARDED.get(scheme).contains(name.toLowerCase(Locale.ROOT)) && printable(value)) {
                kept.put(name, value);
            }
        });
        return new FeedEntry(body, kept, null);
    }

    /** A header value HTTP can carry: no control characters (the client would refuse the request). */
    private static boolean printable(String value) {
        return value.chars().allMatch(c -> c == '\t' || c >= 0x20 && c < 0x7f || c >= 0xa0 && c <= 0xff);
    }

    private static Set<String> names(String... names) {
        Set<String> lower = new java.util.HashSet<>(Set.of("content-type"));
        for (String n : names) {
            lower.add(n.toLowerCase(Locale.ROOT));
        }
        return Set.copyOf(lower);
    }
}
