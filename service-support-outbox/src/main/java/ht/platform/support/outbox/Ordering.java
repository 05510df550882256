package ht.platform.support.outbox;

/** How a destination's deliveries may overlap. */
public enum Ordering {
    /** One delivery in flight per destination, in creation order: a receiver sees its events in order. */
    IN_ORDER_PER_DESTINATION,
    /** Up to {@code webhooks.max-in-flight-per-destination} at once, so a destination that hangs holds a bounded share. */
    CAPPED_PER_DESTINATION
}
