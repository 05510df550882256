package ht.platform.kyc.model;

import ht.platform.support.sql.Rows;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of an application's webhook deliveries, on the plain reactive client like the delivery engine that writes
 * them (service-support's outbox): the dashboard's, in one mode (another tenant's or mode's delivery is not found),
 * and the operator's, of every mode.
 */
@ApplicationScoped
public class WebhookDeliveryStore {

    /** A delivery as the operator lists it. */
    public record Summary(String id, String eventId, String eventType, String status, Integer attempts, Instant nextAttemptAt,
                          Integer lastStatus, String lastError, Instant createdAt, Instant deliveredAt, Instant deadAt) { }

    private static final String COLUMNS = "d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status,"
            + " d.created_at, d.delivered_at, d.dead_at FROM kyc.deliveries d JOIN kyc.events e ON e.id = d.event_id"
            + " WHERE d.application_id = $1 AND e.mode = $2";

    private static final String LATEST = "SELECT " + COLUMNS + " AND ($3::text IS NULL OR d.status = $3)"
            + " AND ($4::text IS NULL OR (d.created_at, d.id) < (SELECT c.created_at, c.id FROM kyc.deliveries c WHERE c.id = $4))"
            + " ORDER BY d.created_at DESC, d.id DESC LIMIT $5";

    private static final String ATTEMPTS = "SELECT attempt_number, attempted_at, url, success, status_code, latency_ms, error,"
            + " response_excerpt FROM kyc.delivery_attempts WHERE delivery_id = $1 ORDER BY id";

    private static final String OF_APPLICATION = "SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at,"
            + " d.last_status, d.last_error, d.created_at, d.delivered_at, d.dead_at FROM kyc.deliveries d"
            + " JOIN kyc.events e ON e.id = d.event_id WHERE d.application_id = $1 AND ($2::text IS NULL OR d.status = $2)"
            + " ORDER BY d.created_at DESC LIMIT 100";

    @Inject
    Pool pool;

    /** The application's latest 100 deliveries of every mode, optionally of one status. */
    public Uni<List<Summary>> ofApplication(String applicationId, String status) {
        return pool.preparedQuery(OF_APPLICATION).execute(Tuple.of(applicationId, status)).map(rows -> {
            List<Summary> out = new ArrayList<>();
            rows.forEach(r -> out.add(new Summary(r.getString("id"), r.getString("event_id"), r.getString("type"),
                    r.getString("status"), r.getInteger("attempts"), Rows.instant(r, "next_attempt_at"), r.getInteger("last_status"),
                    r.getString("last_error"), Rows.instant(r, "created_at"), Rows.instant(r, "delivered_at"), Rows.instant(r, "dead_at"))));
            return out;
        });
    }

    /** Newest first, optionally of one status, after the delivery {@code startingAfter}; without their attempts. */
    public Uni<List<DeliveryView>> latest(String applicationId, String mode, String status, String startingAfter, int limit) {
        return pool.preparedQuery(LATEST).execute(Tuple.of(applicationId, mode, status, startingAfter, limit)).map(rows -> {
            List<DeliveryView> out = new ArrayList<>();
            rows.forEach(r -> out.add(view(r, List.of())));
            return out;
        });
    }

    /** One delivery with its attempts; 404 when the application has none of that id in that mode. */
    public Uni<DeliveryView> get(String applicationId, String mode, String id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " AND d.id = $3").execute(Tuple.of(applicationId, mode, id))
                .map(rows -> Rows.single(rows, r -> r, "Webhook delivery " + id))
                .chain(row -> pool.preparedQuery(ATTEMPTS).execute(Tuple.of(id)).map(attempts -> {
                    List<DeliveryView.AttemptView> list = new ArrayList<>();
                    attempts.forEach(a -> list.add(new DeliveryView.AttemptView(a.getInteger("attempt_number"),
                            time(a, "attempted_at"), a.getString("url"), a.getBoolean("success"),
                            a.getInteger("status_code"), a.getLong("latency_ms"), a.getString("error"),
                            a.getString("response_excerpt"))));
                    return view(row, list);
                }));
    }

    private static DeliveryView view(Row r, List<DeliveryView.AttemptView> attempts) {
        return new DeliveryView(r.getString("id"), r.getString("event_id"), r.getString("type"), r.getString("status"),
                r.getInteger("attempts"), time(r, "next_attempt_at"), r.getInteger("last_status"), time(r, "created_at"),
                time(r, "delivered_at"), time(r, "dead_at"), attempts);
    }

    private static String time(Row r, String column) {
        return Timestamps.seconds(Rows.instant(r, column));
    }
}
