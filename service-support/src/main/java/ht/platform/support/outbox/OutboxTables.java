package ht.platform.support.outbox;

/**
 * Where one service keeps its outbox, in its own names (every value is a constant of the service, never input).
 * The shape is the same in the three services: an event row with its exact body; one delivery row per event and
 * destination ({@code id, event_id, <destination>, status, next_attempt_at, lease_until}); one attempt row per
 * send ({@code delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error,
 * response_excerpt}); the destinations the deliveries go to.
 *
 * @param events          event table, e.g. {@code wallet.events}
 * @param eventOwner      its owner column ({@code project_id}, {@code application_id})
 * @param eventObject     the column naming the object the event is about
 * @param eventBody       the column keeping the exact body
 * @param textBody        true when that column is {@code text} (else {@code bytea})
 * @param deliveries      delivery table
 * @param destination     its destination column ({@code endpoint_id}, {@code application_id})
 * @param order           the column giving a destination's deliveries their order ({@code seq}, {@code next_attempt_at})
 * @param deliveryTimes   the delivery columns set to the creation time ({@code created_at[, updated_at]})
 * @param attempts        attempt table
 * @param attemptId       SQL for an attempt id when the table has no generated key, else null
 * @param attemptUrl      true when the attempt row keeps the URL it went to
 * @param destinations    destination table (alias {@code t} in every fragment)
 * @param delivered       the status word of a delivered delivery ({@code delivered}, {@code succeeded})
 * @param dead            the status word of a delivery that ran out of retries ({@code abandoned}, {@code dead})
 * @param attemptNumber   SQL over alias {@code d}: the number of the attempt about to be made
 * @param failures        SQL over alias {@code d}: failed attempts so far in the current retry cycle
 */
public record OutboxTables(
        String events, String eventOwner, String eventObject, String eventBody, boolean textBody,
        String deliveries, String destination, String order, String deliveryTimes,
        String attempts, String attemptId, boolean attemptUrl,
        String destinations, String delivered, String dead,
        String attemptNumber, String failures) {
}
