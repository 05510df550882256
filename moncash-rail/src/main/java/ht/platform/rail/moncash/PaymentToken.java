package ht.platform.rail.moncash;

import java.net.URI;
import java.time.Instant;

/**
 * CreatePayment's answer: the token, the page the customer is sent to, and when MonCash created the token and lets it
 * expire (its Haiti-local {@code created} and {@code expired}, read by {@link MonCashTime}; null when it gave none).
 */
public record PaymentToken(String orderId, String token, URI redirectUrl, Instant createdAt, Instant expiresAt) {

    @Override
    public String toString() {
        return "PaymentToken[orderId=" + orderId + ", createdAt=" + createdAt + ", expiresAt=" + expiresAt + "]";
    }
}
