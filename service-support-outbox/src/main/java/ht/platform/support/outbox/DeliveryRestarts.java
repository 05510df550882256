package ht.platform.support.outbox;

import ht.platform.support.errors.ApiException;
import ht.platform.support.time.DatabaseTime;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;

/**
 * Resend and recover, one operation (as Svix's are): the chosen deliveries go out again now, with the same event id
 * and body. A dead or delivered one starts a fresh retry cycle; a recovery also sends at once each failing one
 * waiting for its next retry. Each restart commits with the wake-up of the delivery loop.
 * <ul>
 * <li>resend one delivery: dead or delivered;</li>
 * <li>resend an event: its dead or delivered deliveries to destinations that take deliveries, and a first delivery
 * to each destination subscribed since;</li>
 * <li>recover a window (Svix's recover, Convoy's batch retry): every dead or waiting delivery of one destination
 * created in [since, until). The same window asked again resends nothing and answers what the first request did.</li>
 * </ul>
 */
@ApplicationScoped
public class DeliveryRestarts {

    /** {@code resent} deliveries queued again; {@code replayed} when this window had been recovered before. */
    public record Recovered(int resent, boolean replayed, Instant createdAt) { }

    private static final String[] FINISHED = {StatusWords.DEAD, StatusWords.DELIVERED};
    private static final String[] DEAD = {StatusWords.DEAD};

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @Inject
    OutboxWakeup wakeup;

    /** Answers 1 when the delivery (of this owner and mode) was dead or delivered and goes out again, else 0. */
    public Uni<Integer> resend(DeliveryPolicy policy, String owner, String mode, String deliveryId) {
        Instant now = now();
        return pool.withTransaction(conn -> restart(conn, policy, now,
                new Which(owner, mode, FINISHED, false, deliveryId, null, null, null, null, false)));
    }

    /** The operator's resend, of any owner and mode: 1 when the delivery was dead or delivered, else 0. */
    public Uni<Integer> resendAsOperator(DeliveryPolicy policy, String deliveryId) {
        Instant now = now();
        return pool.withTransaction(conn -> restart(conn, policy, now,
                new Which(null, null, FINISHED, false, deliveryId, null, null, null, null, false)));
    }

    /** Answers how many deliveries of the event go out again, new subscribers' first deliveries included. */
    public Uni<Integer> resendEvent(DeliveryPolicy policy, String owner, String mode, String eventId) {
        Instant now = now();
        return pool.withTransaction(conn -> restart(conn, policy, now,
                        new Which(owner, mode, FINISHED, false, null, eventId, null, null, null, true))
                .chain(restarted -> conn.preparedQuery(FanOut.deliveries(policy,
                                        "(SELECT * FROM " + policy.events() + " WHERE id = $1 AND owner_id = $2 AND mode = $3)",
                                        FanOut.SUBSCRIBERS, "$4::timestamptz"))
                        .execute(Tuple.of(eventId, owner, mode, DeliveryStore.at(now)))
                        .chain(added -> wake(conn, policy, restarted + added.rowCount()))));
    }

    /** The caller has checked that the destination is the owner's. */
    public Uni<Recovered> recover(DeliveryPolicy policy, String owner, String mode, String destinationId,
                                  Instant since, Instant until) {
        if (since == null) {
            throw ApiException.invalid("since", "since is required (ISO-8601 time)");
        }
        if (until == null) {
            throw ApiException.invalid("until", "until is required (ISO-8601 time)");
        }
        if (!since.isBefore(until)) {
            throw ApiException.invalid("until", "until must be after since");
        }
        Instant now = now();
        Tuple window = Tuple.of(destinationId, DeliveryStore.at(since), DeliveryStore.at(until));
        return pool.withTransaction(conn -> earlier(conn, policy, window).chain(before -> before != null
                ? Uni.createFrom().item(before)
                : restart(conn, policy, now, new Which(owner, mode, DEAD, true, null, null, destinationId, since, until, false))
                        .chain(resent -> conn.preparedQuery("INSERT INTO " + policy.recoveries()
                                        + " (destination_id, since, until, resent, created_at) VALUES ($1, $2, $3, $4, $5)"
                                        + " ON CONFLICT DO NOTHING")
                                .execute(Tuple.of(destinationId, window.getValue(1), window.getValue(2), resent,
                                        DeliveryStore.at(now)))
                                .chain(inserted -> inserted.rowCount() == 0
                                        ? earlier(conn, policy, window) // the same window, recovered concurrently
                                        : Uni.createFrom().item(new Recovered(resent, false, now))))));
    }

    /** Which deliveries restart; null filters mean any (an owner and mode of null: the operator's resend only). */
    private record Which(String owner, String mode, String[] statuses, boolean waiting, String deliveryId,
                         String eventId, String destinationId, Instant since, Instant until, boolean receivingOnly) { }

    private Uni<Integer> restart(SqlConnection conn, DeliveryPolicy policy, Instant now, Which w) {
        String sql = "UPDATE " + policy.deliveries() + " d SET status = " + StatusWords.SQL_PENDING + ", next_attempt_at = $1, lease_until = NULL,"
                + " cycle_failures = CASE WHEN d.status = " + StatusWords.SQL_PENDING + " THEN d.cycle_failures ELSE 0 END,"
                + " delivered_at = CASE WHEN d.status = " + StatusWords.SQL_PENDING + " THEN d.delivered_at END, dead_at = NULL, updated_at = $1"
                + " FROM " + policy.events() + " ev WHERE ev.id = d.event_id"
                + " AND ($2::text IS NULL OR ev.owner_id = $2) AND ($3::text IS NULL OR ev.mode = $3)"
                + " AND ($6::text IS NULL OR d.id = $6) AND ($7::text IS NULL OR d.event_id = $7)"
                + " AND ($8::text IS NULL OR d.destination_id = $8)"
                + " AND ($9::timestamptz IS NULL OR d.created_at >= $9) AND ($10::timestamptz IS NULL OR d.created_at < $10)"
                + " AND (NOT $11 OR EXISTS (SELECT 1 FROM " + policy.destinations() + " t WHERE t.id = d.destination_id AND t.receives))"
                + " AND (d.status = ANY ($4::text[]) OR ($5 AND d.status = " + StatusWords.SQL_PENDING + " AND d.cycle_failures > 0"
                + " AND (d.lease_until IS NULL OR d.lease_until <= $1) AND d.next_attempt_at > $1))";
        return conn.preparedQuery(sql)
                .execute(Tuple.tuple(Arrays.asList(DeliveryStore.at(now), w.owner(), w.mode(), w.statuses(), w.waiting(),
                        w.deliveryId(), w.eventId(), w.destinationId(), DeliveryStore.at(w.since()),
                        DeliveryStore.at(w.until()), w.receivingOnly())))
                .chain(rows -> wake(conn, policy, rows.rowCount()));
    }

    private Uni<Integer> wake(SqlConnection conn, DeliveryPolicy policy, int restarted) {
        return restarted == 0 ? Uni.createFrom().item(0)
                : conn.query("SELECT " + wakeup.notifyCall(policy.channel())).execute().replaceWith(restarted);
    }

    private static Uni<Recovered> earlier(SqlConnection conn, DeliveryPolicy policy, Tuple window) {
        return conn.preparedQuery("SELECT resent, created_at FROM " + policy.recoveries()
                        + " WHERE destination_id = $1 AND since = $2 AND until = $3")
                .execute(window).map(rows -> {
                    if (!rows.iterator().hasNext()) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    OffsetDateTime at = row.getOffsetDateTime("created_at");
                    return new Recovered(row.getInteger("resent"), true, at.toInstant());
                });
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
