package ht.platform.checkout.provider;

/** The provider's answer to one call. UNKNOWN: ambiguous (timeout, broken connection); money may have moved. */
public record ProviderResult(Status status, String failureCode, String failureMessage) {

    public enum Status { SUCCEEDED, FAILED, PENDING, UNKNOWN, NOT_FOUND }

    public static ProviderResult succeeded() {
        return new ProviderResult(Status.SUCCEEDED, null, null);
    }

    public static ProviderResult failed(String code, String message) {
        return new ProviderResult(Status.FAILED, code, message);
    }

    public static ProviderResult pending() {
        return new ProviderResult(Status.PENDING, null, null);
    }

    public static ProviderResult unknown(String why) {
        return new ProviderResult(Status.UNKNOWN, null, why);
    }

    public static ProviderResult notFound() {
        return new ProviderResult(Status.NOT_FOUND, null, null);
    }

    public boolean definitive() {
        return status == Status.SUCCEEDED || status == Status.FAILED;
    }
}
