package ht.platform.kyc.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.provider.CheckResult;
import ht.platform.kyc.provider.CheckStatus;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Test mode: the outcome is chosen (by the test helpers or on the hosted page) and drives the same path as a
 * decision, with nothing uploaded; the helpers also move a test verification forward or let it expire.
 */
@ApplicationScoped
public class TestOutcomes {

    public static final Set<String> OUTCOMES = Set.of("verified", "rejected", "retry_required", "unable_to_verify", "technical_error");

    private static final List<String> STEPS = List.of("created", "started", "document_submitted", "processing");

    @Inject
    VerificationService verifications;

    @Inject
    Transitions transitions;

    @Inject
    DecisionEngine engine;

    public Uni<Verification> complete(ApiPrincipal caller, String id, String outcome, List<String> reasonCodes) {
        List<String> reasons = reasons(outcome, reasonCodes);
        return Panache.withTransaction(() -> verifications.owned(caller, id).chain(v -> simulate(v, outcome, reasons)));
    }

    /** The outcome's reason codes, checked, or its default reason when none is given. */
    public List<String> reasons(String outcome, List<String> reasonCodes) {
        if (outcome == null || !OUTCOMES.contains(outcome)) {
            throw ApiException.invalid("outcome", "outcome must be one of " + OUTCOMES);
        }
        List<String> reasons = reasonCodes == null ? new ArrayList<>() : new ArrayList<>(reasonCodes);
        for (String r : reasons) {
            if (r == null || !DecisionEngine.REASONS.contains(r)) {
                throw ApiException.invalid("reason_codes", "Unknown reason code '" + r + "'");
            }
        }
        if (outcome.equals("verified") && !reasons.isEmpty()) {
            throw ApiException.invalid("reason_codes", "A verified outcome has no reason codes");
        }
        if (reasons.isEmpty()) {
            switch (outcome) {
                case "rejected" -> reasons.add("document_expired");
                case "retry_required" -> reasons.add("document_blurry");
                case "unable_to_verify" -> reasons.add("document_type_not_supported");
                case "technical_error" -> reasons.add("processing_error");
                default -> { }
            }
        }
        return reasons;
    }

    /** Drives the (locked) verification through processing to the chosen outcome. */
    Uni<Verification> simulate(Verification v, String outcome, List<String> reasons) {
        if (!v.test()) {
            throw new ApiException(403, "FORBIDDEN", "Simulated outcomes exist for test-mode verifications only");
        }
        if (!Set.of("created", "started", "document_submitted", "processing").contains(v.status)) {
            throw new ApiException(409, "VERIFICATION_NOT_IN_PROGRESS", "A verification in status '" + v.status + "' cannot be completed");
        }
        Instant now = transitions.now();
        if (v.documentType == null) {
            v.documentType = v.documentTypes[0];
        }
        Uni<Verification> toProcessing = "processing".equals(v.status) ? Uni.createFrom().item(v) : transitions.move(v, "processing", now);
        return toProcessing.chain(() -> transitions.finish(v, outcome, reasons, simulatedResult(v, outcome, reasons, now)));
    }

    private ObjectNode simulatedResult(Verification v, String outcome, List<String> reasons, Instant now) {
        List<CheckResult> results = new ArrayList<>();
        boolean ok = outcome.equals("verified");
        results.add(ok ? CheckResult.passed("document_image") : new CheckResult("document_image",
                outcome.equals("unable_to_verify") ? CheckStatus.not_performed : CheckStatus.failed, reasons,
                outcome.equals("retry_required"), Map.of()));
        results.add(ok ? CheckResult.passed("mrz") : CheckResult.notPerformed("mrz", "simulated"));
        results.add(ok ? CheckResult.passed("document_validity", Map.of("expiry_valid", true)) : CheckResult.notPerformed("document_validity", "simulated"));
        results.add(ok ? CheckResult.passed("face") : CheckResult.notPerformed("face", "simulated"));
        return engine.result(v.documentType, v.country, results, now, true);
    }

    /** Moves a test verification forward to a non-final status (started, document_submitted, processing). */
    public Uni<Verification> advance(ApiPrincipal caller, String id, String status) {
        if (status == null || !STEPS.subList(1, 4).contains(status)) {
            throw ApiException.invalid("status", "status must be one of started, document_submitted, processing");
        }
        return Panache.withTransaction(() -> verifications.owned(caller, id).chain(v -> {
            int from = STEPS.indexOf(v.status);
            int to = STEPS.indexOf(status);
            if (from < 0 || to <= from) {
                throw new ApiException(409, "INVALID_TRANSITION", "Cannot move from '" + v.status + "' to '" + status + "'");
            }
            Instant now = transitions.now();
            if (v.documentType == null && to >= 2) {
                v.documentType = v.documentTypes[0];
            }
            return Multi.createFrom().iterable(STEPS.subList(from + 1, to + 1))
                    .onItem().transformToUniAndConcatenate(next -> transitions.move(v, next, now))
                    .collect().last();
        }));
    }

    /** Lets the verification's validity run out now, as the scheduler would at expires_at. */
    public Uni<Verification> expire(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> verifications.owned(caller, id).chain(v -> {
            if (!Verification.EXPIRABLE.contains(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_EXPIRABLE", "A verification in status '" + v.status + "' cannot expire");
            }
            return transitions.finish(v, "expired", List.of("session_expired"), null);
        }));
    }
}
