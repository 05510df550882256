package ht.platform.webhooks.signing;

/**
 * Outcome of {@link WebhookVerifier#verify}.
 *
 * @param valid     true when a signature matched and the timestamp is within tolerance
 * @param failure   why the delivery was refused, null when valid
 * @param timestamp the header timestamp (Unix seconds) when it could be read, otherwise 0
 * @param eventId   the signed event id ({@link SignatureScheme#GATEWAY} only) when it could be read, otherwise
 *                  null; for KYC and CHECKOUT take the id from the verified body
 */
public record VerificationResult(boolean valid, Failure failure, long timestamp, String eventId) {

    /** Why a delivery was refused. */
    public enum Failure {
        /** A required header is absent or blank. */
        MISSING_HEADER,
        /** A header is present but cannot be parsed. */
        MALFORMED_HEADER,
        /** The signature is genuine but the timestamp is too far from the receiver's clock (replay or skew). */
        TIMESTAMP_OUTSIDE_TOLERANCE,
        /** No signature matches any of the receiver's secrets. */
        NO_MATCHING_SIGNATURE
    }

    public VerificationResult {
        if (valid == (failure != null)) {
            throw new IllegalArgumentException("a result is either valid or has a failure");
        }
    }

    public static VerificationResult ok(long timestamp, String eventId) {
        return new VerificationResult(true, null, timestamp, eventId);
    }

    public static VerificationResult failed(Failure failure) {
        return new VerificationResult(false, failure, 0, null);
    }

    public static VerificationResult failed(Failure failure, long timestamp, String eventId) {
        return new VerificationResult(false, failure, timestamp, eventId);
    }
}
