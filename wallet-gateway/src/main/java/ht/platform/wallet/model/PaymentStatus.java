package ht.platform.wallet.model;

import ht.platform.support.state.StateGraph;

import java.util.Map;
import java.util.Set;

/** A payment's states and moves: created → pending when the customer is sent to the wallet; then a final state. */
public final class PaymentStatus {

    public static final StateGraph GRAPH = StateGraph.of(Map.of(
            "created", Set.of("pending", "succeeded", "failed", "expired"),
            "pending", Set.of("succeeded", "failed", "expired")));

    private PaymentStatus() { }
}
