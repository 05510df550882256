package ht.platform.rail.moncash;

import java.net.URI;
import java.time.Instant;

/** CreatePayment's answer: the token, the page the customer is sent to, and when MonCash lets the token expire. */
public record PaymentToken(String orderId, String token, URI redirectUrl, Instant expiresAt) {

    @Override
    public String toString() {
        return "PaymentToken[orderId=" + orderId + ", expiresAt=" + expiresAt + "]";
    }
}
