package ht.platform.support.outbox;

/**
 * Who receives an event, in one place: the INSERT of one pending delivery per chosen destination of the event row
 * {@code ev} (id, owner_id, mode, type), due at {@code at}. A destination already given the event keeps its
 * delivery.
 */
final class FanOut {

    /** Every destination of the event's owner and mode that takes new deliveries and subscribes to its type. */
    static final String SUBSCRIBERS = "t.owner_id = ev.owner_id AND t.mode = ev.mode AND t.receives"
            + " AND (t.events IS NULL OR ev.type = ANY (t.events))";

    private FanOut() {
    }

    /**
     * @param events   SQL naming the event rows as {@code ev}
     * @param audience SQL over {@code ev} and {@code t} (the destination) choosing the receivers
     * @param at       SQL of the time the deliveries are created and due
     */
    static String deliveries(DeliveryPolicy policy, String events, String audience, String at) {
        return "INSERT INTO " + policy.deliveries() + " (id, event_id, destination_id, status, next_attempt_at, created_at,"
                + " updated_at) SELECT 'whd_' || md5(ev.id || t.id), ev.id, t.id, " + StatusWords.SQL_PENDING + ", " + at + ", " + at + ", " + at
                + " FROM " + events + " ev, " + policy.destinations() + " t WHERE " + audience
                + " ORDER BY t.created_at ON CONFLICT (event_id, destination_id) DO NOTHING";
    }
}
