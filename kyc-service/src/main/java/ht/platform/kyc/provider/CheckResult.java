package ht.platform.kyc.provider;

import java.util.List;
import java.util.Map;

/**
 * What one check found. {@code retryable} says whether a new attempt (new photos) could change a failure;
 * {@code details} holds only non-personal facts (e.g. issuing country, expiry valid), never document data.
 */
public record CheckResult(String name, CheckStatus status, List<String> reasonCodes, boolean retryable, Map<String, Object> details) {

    public static CheckResult passed(String name, Map<String, Object> details) {
        return new CheckResult(name, CheckStatus.passed, List.of(), false, details);
    }

    public static CheckResult passed(String name) {
        return passed(name, Map.of());
    }

    public static CheckResult failed(String name, String reason, boolean retryable) {
        return new CheckResult(name, CheckStatus.failed, List.of(reason), retryable, Map.of());
    }

    public static CheckResult inconclusive(String name, String reason) {
        return new CheckResult(name, CheckStatus.inconclusive, List.of(reason), true, Map.of());
    }

    /** Not performed because another check failed on this attempt's images (retryable: a new attempt can make it run). */
    public static CheckResult awaiting(String name, String why) {
        return new CheckResult(name, CheckStatus.not_performed, List.of(), true, Map.of("not_performed_because", why));
    }

    /** Not performed because it cannot run in this configuration (no new attempt would change that). */
    public static CheckResult notPerformed(String name, String why) {
        return new CheckResult(name, CheckStatus.not_performed, List.of(), false, Map.of("not_performed_because", why));
    }
}
