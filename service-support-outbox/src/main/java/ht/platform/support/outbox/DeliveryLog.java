package ht.platform.support.outbox;

import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.sql.Rows;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The deliveries of one owner and mode as the APIs and dashboards of every service show them: a page newest first,
 * one delivery, and their attempts. A delivery belongs to the owner and mode of its event, so another tenant's or
 * mode's delivery is never found. Statuses here are the outbox's own ({@link StatusWords}).
 */
@ApplicationScoped
public class DeliveryLog {

    /** One delivery; {@code url} is its destination's address now. */
    public record Delivery(String id, String eventId, String eventType, String destinationId, String url,
                           String status, int attempts, int cycleFailures, Instant nextAttemptAt,
                           Integer lastStatusCode, String lastError, Instant lastAttemptAt, Instant createdAt,
                           Instant deliveredAt, Instant deadAt) {

        public boolean pending() {
            return StatusWords.PENDING.equals(status);
        }
    }

    public record Attempt(String deliveryId, int attemptNumber, Instant attemptedAt, String url, boolean success,
                          Integer statusCode, long latencyMs, String error, String responseExcerpt) { }

    /** Which deliveries of one owner and mode; a null filter means any. */
    public record Query(String owner, String mode, String destinationId, String status, String eventType,
                        String eventId) {

        public static Query of(String owner, String mode) {
            return new Query(owner, java.util.Objects.requireNonNull(mode, "mode"), null, null, null, null);
        }

        /** Every mode of the owner: the operator's view only. */
        public static Query everyMode(String owner) {
            return new Query(owner, null, null, null, null, null);
        }

        public Query destination(String id) {
            return new Query(owner, mode, id, status, eventType, eventId);
        }

        public Query status(String outboxStatus) {
            return new Query(owner, mode, destinationId, outboxStatus, eventType, eventId);
        }

        public Query eventType(String type) {
            return new Query(owner, mode, destinationId, status, type, eventId);
        }

        public Query event(String id) {
            return new Query(owner, mode, destinationId, status, eventType, id);
        }
    }

    private static final String COLUMNS = "SELECT d.id, d.event_id, ev.type AS event_type, d.destination_id, t.url,"
            + " d.status, d.attempts, d.cycle_failures, d.next_attempt_at, d.last_status_code, d.last_error,"
            + " d.last_attempt_at, d.created_at, d.delivered_at, d.dead_at, d.seq";

    @Inject
    Pool pool;

    /** Up to {@code limit} deliveries newest first, after the delivery {@code startingAfter} (400 if not one of them). */
    public Uni<List<Delivery>> page(DeliveryPolicy policy, Query q, String startingAfter, int limit) {
        Uni<Long> before = startingAfter == null ? Uni.createFrom().item(Long.MAX_VALUE)
                : pool.preparedQuery("SELECT d.seq FROM " + policy.deliveries() + " d JOIN " + policy.events()
                                + " ev ON ev.id = d.event_id WHERE d.id = $1 AND ev.owner_id = $2 AND ($3::text IS NULL OR ev.mode = $3)"
                                + " AND ($4::text IS NULL OR d.destination_id = $4)")
                        .execute(Tuple.of(startingAfter, q.owner(), q.mode(), q.destinationId()))
                        .map(rows -> Rows.single(rows, r -> r.getLong("seq"),
                                () -> ApiException.invalid("starting_after", Paging.UNKNOWN_CURSOR)));
        return before.chain(seq -> pool.preparedQuery(COLUMNS + from(policy)
                        + " WHERE ev.owner_id = $1 AND ($2::text IS NULL OR ev.mode = $2) AND ($3::text IS NULL OR d.destination_id = $3)"
                        + " AND ($4::text IS NULL OR d.status = $4) AND ($5::text IS NULL OR ev.type = $5)"
                        + " AND ($6::text IS NULL OR d.event_id = $6) AND d.seq < $7 ORDER BY d.seq DESC LIMIT $8")
                .execute(Tuple.tuple(Arrays.asList(q.owner(), q.mode(), q.destinationId(), q.status(), q.eventType(),
                        q.eventId(), seq, limit)))
                .map(rows -> {
                    List<Delivery> out = new ArrayList<>(rows.size());
                    rows.forEach(r -> out.add(delivery(r)));
                    return out;
                }));
    }

    /** One delivery of the owner and mode, or null. */
    public Uni<Delivery> one(DeliveryPolicy policy, String owner, String mode, String id) {
        return pool.preparedQuery(COLUMNS + from(policy) + " WHERE d.id = $1 AND ev.owner_id = $2 AND ev.mode = $3")
                .execute(Tuple.of(id, owner, mode))
                .map(rows -> rows.iterator().hasNext() ? delivery(rows.iterator().next()) : null);
    }

    /** The attempts of these deliveries in the order they were made, by delivery. */
    public Uni<Map<String, List<Attempt>>> attempts(DeliveryPolicy policy, Collection<String> deliveryIds) {
        Map<String, List<Attempt>> out = new LinkedHashMap<>();
        deliveryIds.forEach(id -> out.put(id, new ArrayList<>()));
        if (deliveryIds.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        return pool.preparedQuery("SELECT delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms,"
                        + " error, response_excerpt FROM " + policy.attempts() + " WHERE delivery_id = ANY ($1::text[])"
                        + " ORDER BY attempt_number, id")
                .execute(Tuple.of(deliveryIds.toArray(String[]::new)))
                .map(rows -> {
                    rows.forEach(a -> out.get(a.getString("delivery_id")).add(new Attempt(a.getString("delivery_id"),
                            a.getInteger("attempt_number"), Rows.instant(a, "attempted_at"), a.getString("url"),
                            a.getBoolean("success"), a.getInteger("status_code"), a.getLong("latency_ms"),
                            a.getString("error"), a.getString("response_excerpt"))));
                    return out;
                });
    }

    private static String from(DeliveryPolicy policy) {
        return " FROM " + policy.deliveries() + " d JOIN " + policy.events() + " ev ON ev.id = d.event_id"
                + " LEFT JOIN " + policy.destinations() + " t ON t.id = d.destination_id";
    }

    private static Delivery delivery(Row r) {
        return new Delivery(r.getString("id"), r.getString("event_id"), r.getString("event_type"),
                r.getString("destination_id"), r.getString("url"), r.getString("status"), r.getInteger("attempts"),
                r.getInteger("cycle_failures"), Rows.instant(r, "next_attempt_at"), r.getInteger("last_status_code"),
                r.getString("last_error"), Rows.instant(r, "last_attempt_at"), Rows.instant(r, "created_at"),
                Rows.instant(r, "delivered_at"), Rows.instant(r, "dead_at"));
    }
}
