package ht.platform.support.outbox;

import ht.platform.support.errors.ApiException;
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
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

/**
 * Recover a window (Svix's recover, Convoy's batch retry): every dead delivery of one address and mode created in
 * [since, until) is queued again with a fresh retry cycle, and every failing one waiting for its next retry is tried
 * at once. Each window is recorded in {@code <schema>.delivery_recoveries}: the same window asked again resends
 * nothing and answers what the first request did. The caller has checked that the address is the tenant's.
 */
@ApplicationScoped
public class DeliveryRecovery {

    private static final Pattern COLUMN = Pattern.compile("d\\.([a-z_]+)");

    /** {@code resent} deliveries queued again; {@code replayed} when this window had been recovered before. */
    public record Recovered(int resent, boolean replayed, Instant createdAt) { }

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @Inject
    OutboxWakeup wakeup;

    public Uni<Recovered> recover(DeliveryPolicy policy, String destinationId, String mode, Instant since, Instant until) {
        if (since == null) {
            throw ApiException.invalid("since", "since is required (ISO-8601 time)");
        }
        if (until == null) {
            throw ApiException.invalid("until", "until is required (ISO-8601 time)");
        }
        if (!since.isBefore(until)) {
            throw ApiException.invalid("until", "until must be after since");
        }
        OutboxTables x = policy.tables();
        String recoveries = x.deliveries().substring(0, x.deliveries().indexOf('.')) + ".delivery_recoveries";
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Tuple window = Tuple.of(destinationId + "/" + mode, DeliveryStore.at(since), DeliveryStore.at(until));
        return pool.withTransaction(conn -> earlier(conn, recoveries, window).chain(before -> before != null
                ? Uni.createFrom().item(before)
                : conn.preparedQuery(restartSql(policy))
                        .execute(Tuple.of(DeliveryStore.at(now), destinationId, mode, DeliveryStore.at(since), DeliveryStore.at(until)))
                        .chain(restarted -> conn.preparedQuery("INSERT INTO " + recoveries + " (address, since, until, resent, created_at)"
                                        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING")
                                .execute(Tuple.of(window.getValue(0), window.getValue(1), window.getValue(2),
                                        restarted.rowCount(), DeliveryStore.at(now)))
                                .chain(inserted -> inserted.rowCount() == 0
                                        ? earlier(conn, recoveries, window) // the same window, recovered concurrently
                                        : conn.query("SELECT " + wakeup.notifyCall(policy.channel())).execute()
                                                .replaceWith(new Recovered(restarted.rowCount(), false, now))))));
    }

    private static Uni<Recovered> earlier(SqlConnection conn, String recoveries, Tuple window) {
        return conn.preparedQuery("SELECT resent, created_at FROM " + recoveries + " WHERE address = $1 AND since = $2 AND until = $3")
                .execute(window).map(rows -> {
                    if (!rows.iterator().hasNext()) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    OffsetDateTime at = row.getOffsetDateTime("created_at");
                    return new Recovered(row.getInteger("resent"), true, at.toInstant());
                });
    }

    /** $1 now, $2 destination, $3 mode, $4 since, $5 until. A dead delivery starts a fresh retry cycle. */
    static String restartSql(DeliveryPolicy policy) {
        OutboxTables x = policy.tables();
        var failures = COLUMN.matcher(x.failures());
        if (!failures.matches()) {
            throw new IllegalStateException("the failures of " + policy.name() + " are not a column of the delivery");
        }
        String dead = "'" + x.dead() + "'";
        return "UPDATE " + x.deliveries() + " d SET status = 'pending', next_attempt_at = $1, lease_until = NULL, "
                + failures.group(1) + " = CASE WHEN d.status = " + dead + " THEN 0 ELSE " + x.failures() + " END"
                + " FROM " + x.events() + " ev WHERE ev.id = d.event_id AND ev.mode = $3 AND d." + x.destination() + " = $2"
                + " AND d.created_at >= $4 AND d.created_at < $5"
                + " AND (d.status = " + dead + " OR (d.status = 'pending' AND " + x.failures() + " > 0"
                + " AND (d.lease_until IS NULL OR d.lease_until <= $1) AND d.next_attempt_at > $1))";
    }
}
