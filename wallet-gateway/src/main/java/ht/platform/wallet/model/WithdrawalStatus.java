package ht.platform.wallet.model;

import ht.platform.support.state.StateGraph;

import java.util.Map;
import java.util.Set;

/** A withdrawal's states and moves: requested → processing (the payout) → completed | failed, or rejected, cancelled. */
public final class WithdrawalStatus {

    public static final StateGraph GRAPH = StateGraph.of(Map.of(
            "requested", Set.of("processing", "rejected", "cancelled"),
            "processing", Set.of("completed", "failed")));

    private WithdrawalStatus() { }
}
