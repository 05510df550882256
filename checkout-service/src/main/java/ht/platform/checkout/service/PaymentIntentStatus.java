package ht.platform.checkout.service;

import ht.platform.support.state.StateGraph;
import java.util.Map;
import java.util.Set;

/** Payment statuses and the transition graph of the decisions; every move is checked against it under a row lock. */
public final class PaymentIntentStatus {

    public static final String REQUIRES_PAYMENT_METHOD = "requires_payment_method";
    public static final String REQUIRES_ACTION = "requires_action";
    public static final String PROCESSING = "processing";
    public static final String PROVIDER_PENDING = "provider_pending";
    public static final String PROVIDER_UNKNOWN = "provider_unknown";
    public static final String REQUIRES_CAPTURE = "requires_capture";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";
    public static final String EXPIRED = "expired";
    public static final String PARTIALLY_REFUNDED = "partially_refunded";
    public static final String REFUNDED = "refunded";

    public static final Set<String> ALL = Set.of(REQUIRES_PAYMENT_METHOD, REQUIRES_ACTION, PROCESSING, PROVIDER_PENDING,
            PROVIDER_UNKNOWN, REQUIRES_CAPTURE, SUCCEEDED, FAILED, CANCELLED, EXPIRED, PARTIALLY_REFUNDED, REFUNDED);

    private static final StateGraph GRAPH = StateGraph.of(Map.ofEntries(
            Map.entry(REQUIRES_PAYMENT_METHOD, Set.of(PROCESSING, REQUIRES_ACTION, CANCELLED, EXPIRED)),
            Map.entry(REQUIRES_ACTION, Set.of(PROCESSING, FAILED, CANCELLED, EXPIRED)),
            // processing -> requires_action: the rail created the payment and the customer pays on the rail's page (MonCash)
            Map.entry(PROCESSING, Set.of(SUCCEEDED, FAILED, PROVIDER_PENDING, PROVIDER_UNKNOWN, REQUIRES_CAPTURE, REQUIRES_ACTION)),
            Map.entry(PROVIDER_PENDING, Set.of(SUCCEEDED, FAILED, REQUIRES_CAPTURE)),
            Map.entry(PROVIDER_UNKNOWN, Set.of(SUCCEEDED, FAILED, REQUIRES_CAPTURE)),
            Map.entry(REQUIRES_CAPTURE, Set.of(SUCCEEDED, CANCELLED)),
            Map.entry(SUCCEEDED, Set.of(PARTIALLY_REFUNDED, REFUNDED)),
            Map.entry(PARTIALLY_REFUNDED, Set.of(PARTIALLY_REFUNDED, REFUNDED))));

    private PaymentIntentStatus() { }

    public static boolean canMove(String from, String to) {
        return GRAPH.canMove(from, to);
    }
}
