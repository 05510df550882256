package ht.platform.kyc.model;

import ht.platform.support.state.StateGraph;

import java.util.Map;
import java.util.Set;

/**
 * A verification's states and moves: the hosted steps (created → started → document_submitted → processing), the
 * decision out of processing, a retry back to created, and cancel or expiry from any step before processing. The
 * test helpers go straight to processing from any earlier step.
 */
public final class VerificationStatus {

    public static final StateGraph GRAPH = StateGraph.of(Map.of(
            "created", Set.of("started", "processing", "cancelled", "expired"),
            "started", Set.of("document_submitted", "processing", "cancelled", "expired"),
            "document_submitted", Set.of("processing", "cancelled", "expired"),
            "processing", Set.of("verified", "rejected", "retry_required", "unable_to_verify", "technical_error"),
            "retry_required", Set.of("created", "cancelled", "expired")));

    private VerificationStatus() { }
}
