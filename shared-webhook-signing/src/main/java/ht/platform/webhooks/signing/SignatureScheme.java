package ht.platform.webhooks.signing;

/**
 * The three webhook signature schemes of the platform. Every scheme is HMAC-SHA256 in lower-case hex,
 * keyed with the UTF-8 bytes of the whole secret (including any {@code whsec_} prefix).
 */
public enum SignatureScheme {
    /** {@code Kyc-Signature: t=<unix s>,v1=<hex>[,v1=<hex>]} over {@code <t>.<raw body>} (Stripe-compatible). */
    KYC,
    /**
     * {@code Checkout-Timestamp: <unix s>} and {@code Checkout-Signature: <hex>[,<hex>]} over
     * {@code <timestamp>.<raw body>}.
     */
    CHECKOUT,
    /**
     * {@code X-Gateway-Timestamp: <unix s>}, {@code X-Gateway-Event-ID: <id>} and
     * {@code X-Gateway-Signature: v1=<hex>[,v1=<hex>]} over {@code <timestamp>.<event id>.<raw body>}.
     */
    GATEWAY
}
