package ht.platform.wallet.events;

import java.util.List;

/** The event kinds of the source's section 6. */
public final class EventTypes {

    public static final String PING = "webhook.ping";

    /** Kinds an address may subscribe to (webhook.ping goes only to the address it tests). */
    public static final List<String> SUBSCRIBABLE = List.of(
            "payment.created", "payment.pending", "payment.succeeded", "payment.failed", "payment.expired",
            "withdrawal.requested", "withdrawal.processing", "withdrawal.completed", "withdrawal.rejected",
            "withdrawal.cancelled", "withdrawal.failed");

    private EventTypes() { }
}
