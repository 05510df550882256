package ht.platform.checkout.events;

import java.util.List;

/** The event types of the source document. */
public final class EventTypes {

    public static final String PI_CREATED = "payment_intent.created";
    public static final String PI_PROCESSING = "payment_intent.processing";
    public static final String PI_SUCCEEDED = "payment_intent.succeeded";
    public static final String PI_FAILED = "payment_intent.failed";
    public static final String PI_CANCELLED = "payment_intent.cancelled";
    public static final String PI_EXPIRED = "payment_intent.expired";
    public static final String REFUND_CREATED = "refund.created";
    public static final String REFUND_SUCCEEDED = "refund.succeeded";
    public static final String REFUND_FAILED = "refund.failed";

    public static final List<String> ALL = List.of(PI_CREATED, PI_PROCESSING, PI_SUCCEEDED, PI_FAILED, PI_CANCELLED,
            PI_EXPIRED, REFUND_CREATED, REFUND_SUCCEEDED, REFUND_FAILED);

    private EventTypes() { }
}
