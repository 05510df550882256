package ht.platform.webhooks.signing;

/** Header names of the three schemes. */
public final class WebhookHeaders {
    public static final String KYC_SIGNATURE = "Kyc-Signature";
    public static final String CHECKOUT_TIMESTAMP = "Checkout-Timestamp";
    public static final String CHECKOUT_SIGNATURE = "Checkout-Signature";
    public static final String GATEWAY_TIMESTAMP = "X-Gateway-Timestamp";
    public static final String GATEWAY_EVENT_ID = "X-Gateway-Event-ID";
    public static final String GATEWAY_SIGNATURE = "X-Gateway-Signature";

    private WebhookHeaders() {
    }
}
