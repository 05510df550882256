package ht.platform.checkout.provider;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The provider's answer to one call. UNKNOWN: ambiguous (timeout, broken connection); money may have moved.
 * REDIRECT: the rail created the payment and the customer pays on the rail's own page ({@code redirectUrl}, usable
 * until {@code redirectExpiresAt}). A SUCCEEDED lookup carries the amount the rail reports and its own reference.
 */
public record ProviderResult(Status status, String failureCode, String failureMessage, BigDecimal reportedAmount,
                             String providerReference, String redirectUrl, Instant redirectExpiresAt) {

    public enum Status { SUCCEEDED, FAILED, PENDING, UNKNOWN, NOT_FOUND, REDIRECT }

    public static ProviderResult succeeded() {
        return new ProviderResult(Status.SUCCEEDED, null, null, null, null, null, null);
    }

    /** The rail shows the money collected: {@code amount} as it reports it, {@code reference} its transaction id. */
    public static ProviderResult collected(BigDecimal amount, String reference) {
        return new ProviderResult(Status.SUCCEEDED, null, null, amount, reference, null, null);
    }

    public static ProviderResult failed(String code, String message) {
        return new ProviderResult(Status.FAILED, code, message, null, null, null, null);
    }

    public static ProviderResult pending() {
        return new ProviderResult(Status.PENDING, null, null, null, null, null, null);
    }

    public static ProviderResult unknown(String why) {
        return new ProviderResult(Status.UNKNOWN, null, why, null, null, null, null);
    }

    public static ProviderResult notFound() {
        return new ProviderResult(Status.NOT_FOUND, null, null, null, null, null, null);
    }

    public static ProviderResult redirect(String url, Instant expiresAt) {
        return new ProviderResult(Status.REDIRECT, null, null, null, null, url, expiresAt);
    }

    public boolean definitive() {
        return status == Status.SUCCEEDED || status == Status.FAILED;
    }
}
