package ht.platform.support.outbox;

import ht.platform.support.time.DatabaseTime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outbox's SQL, on the plain reactive client (no ORM session), one round trip each:
 * <ul>
 * <li>claim: each open destination offers its oldest due deliveries, fewer by those it has in flight (one for an
 * in-order destination), locked {@code FOR UPDATE SKIP LOCKED} and leased for longer than a send;</li>
 * <li>record: a batch of attempts, the delivery rows (delivered, rescheduled by the retry schedule, or dead) and the
 * destination (pause rule) together; for in-order destinations the same statement leases each destination's
 * next due delivery, so a lane never waits for a separate claim.</li>
 * </ul>
 * Only deliveries still carrying this claim's lease are recorded, so a replica whose lease ran out never writes
 * over another's attempt.
 */
@ApplicationScoped
public class DeliveryStore {

    /** The longest text kept from a receiver's answer or an error. */
    static final int TEXT_LIMIT = 1000;

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @Inject
    WebhookSettings settings;

    /** Absent in the engine's own tests, which put a store together by hand. */
    @Inject
    MeterRegistry registry;

    private final Map<String, String[]> sql = new ConcurrentHashMap<>();

    public record Outcome(ClaimedDelivery delivery, SendResult result) { }

    public Uni<List<ClaimedDelivery>> claimDue(DeliveryPolicy policy, int limit) {
        Instant now = now();
        int cap = policy.ordering() == Ordering.IN_ORDER_PER_DESTINATION ? 1 : settings.maxInFlightPerDestination();
        return pool.preparedQuery(statements(policy)[0])
                .execute(Tuple.of(at(now), Math.max(1, limit), cap, at(now.plus(settings.lease()))))
                .map(DeliveryStore::claimed);
    }

    /**
     * Records the outcomes in one statement; answers the deliveries this statement claimed next (the next due
     * delivery of each in-order destination whose attempt was recorded).
     */
    public Uni<List<ClaimedDelivery>> record(DeliveryPolicy policy, List<Outcome> outcomes) {
        Instant now = now();
        int n = outcomes.size();
        String[] ids = new String[n];
        Integer[] numbers = new Integer[n];
        Boolean[] ok = new Boolean[n];
        Integer[] codes = new Integer[n];
        Long[] latency = new Long[n];
        String[] errors = new String[n];
        String[] excerpts = new String[n];
        String[] status = new String[n];
        OffsetDateTime[] next = new OffsetDateTime[n];
        String[] destinations = new String[n];
        OffsetDateTime[] leases = new OffsetDateTime[n];
        String[] urls = new String[n];
        for (int i = 0; i < n; i++) {
            ClaimedDelivery d = outcomes.get(i).delivery();
            SendResult r = outcomes.get(i).result();
            Optional<Duration> retry = r.success() ? Optional.empty()
                    : policy.schedule().delayAfterFailedAttempt(d.failures() + 1);
            ids[i] = d.id();
            numbers[i] = d.attemptNumber();
            ok[i] = r.success();
            codes[i] = r.statusCode();
            latency[i] = r.latencyMillis();
            errors[i] = StorableText.of(r.error(), TEXT_LIMIT);
            excerpts[i] = StorableText.of(r.responseExcerpt(), WebhookTransport.EXCERPT_BYTES);
            status[i] = r.success() ? StatusWords.DELIVERED : retry.isPresent() ? StatusWords.PENDING : StatusWords.DEAD;
            next[i] = retry.map(delay -> at(now.plus(delay))).orElse(null);
            destinations[i] = d.destinationId();
            leases[i] = at(d.lease());
            urls[i] = StorableText.of(d.url(), 2048);
        }
        List<Object> values = new ArrayList<>(List.of(ids, numbers, ok, codes, latency, errors, excerpts, status, next,
                destinations, leases, urls, at(now)));
        if (policy.ordering() == Ordering.IN_ORDER_PER_DESTINATION) {
            values.add(at(now.plus(settings.lease()))); // the lease of each lane's next delivery
        }
        Tuple params = Tuple.tuple(values);
        long dead = java.util.Arrays.stream(status).filter(StatusWords.DEAD::equals).count();
        return pool.preparedQuery(statements(policy)[1]).execute(params)
                .invoke(rows -> countDead(policy, dead))
                .map(DeliveryStore::claimed);
    }

    /** {@code webhook_deliveries_dead_total}: deliveries that used up their retry schedule, counted once written. */
    private void countDead(DeliveryPolicy policy, long dead) {
        if (dead > 0 && registry != null) {
            Counter.builder("webhook_deliveries_dead").tag("service", policy.name())
                    .description("Webhook deliveries that used up their retry schedule").register(registry).increment(dead);
        }
    }

    private static List<ClaimedDelivery> claimed(RowSet<Row> rows) {
        List<ClaimedDelivery> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            if (row.getColumnIndex("id") < 0) {
                break; // the record statement of a capped outbox answers no rows
            }
            out.add(new ClaimedDelivery(row.getString("id"), row.getString("destination_id"),
                    row.getInteger("attempt_number"), row.getInteger("failures"), instant(row, "lease"),
                    row.getString("event_id"), row.getString("event_type"), row.getString("mode"),
                    row.getBuffer("body").getBytes(), row.getString("url"), row.getString("secret"),
                    row.getString("previous_secret"), instant(row, "previous_secret_expires_at"),
                    row.getString("secret_bound_to"), row.getString("trace_parent")));
        }
        return out;
    }

    private String[] statements(DeliveryPolicy policy) {
        return sql.computeIfAbsent(policy.name(), n -> new String[] {claimSql(policy), recordSql(policy)});
    }

    /** The columns of a destination that sending needs, read from {@code t}. */
    private static final String ADDRESS = "t.url, t.secret, t.previous_secret, t.previous_secret_expires_at, t.secret_bound_to";

    /**
     * $1 now, $2 limit, $3 in flight allowed per destination, $4 lease until. Only the destinations that have pending
     * deliveries are visited ({@code lanes}, one index step each over the lane index), not every destination there
     * is. The due rows are found by an array of ids, not {@code IN (subquery)}: with the limit a parameter, the
     * generic plan of the latter scans the whole table.
     */
    static String claimSql(DeliveryPolicy policy) {
        String deliveries = policy.deliveries();
        return "WITH RECURSIVE lanes AS ((SELECT destination_id AS dest FROM " + deliveries
                + "     WHERE status = " + StatusWords.SQL_PENDING + " ORDER BY destination_id LIMIT 1)"
                + "   UNION ALL SELECT (SELECT destination_id FROM " + deliveries + " WHERE status = " + StatusWords.SQL_PENDING
                + "     AND destination_id > l.dest ORDER BY destination_id LIMIT 1) FROM lanes l WHERE l.dest IS NOT NULL),"
                + " offered AS (SELECT o.id, o.seq, " + ADDRESS + " FROM lanes l JOIN " + policy.destinations() + " t ON t.id = l.dest"
                + "   CROSS JOIN LATERAL (SELECT d.id, d.seq FROM " + deliveries + " d"
                + "     WHERE d.destination_id = t.id AND d.status = " + StatusWords.SQL_PENDING + " AND d.next_attempt_at <= $1"
                + "     AND (d.lease_until IS NULL OR d.lease_until <= $1)"
                + "     ORDER BY d.seq LIMIT GREATEST($3 - (SELECT count(*) FROM " + deliveries + " b"
                + "       WHERE b.destination_id = t.id AND b.status = " + StatusWords.SQL_PENDING + " AND b.lease_until > $1), 0)) o"
                + "   WHERE t.open ORDER BY o.seq LIMIT $2),"
                + " due AS (SELECT id FROM " + deliveries + " WHERE id = ANY (ARRAY(SELECT id FROM offered))"
                + "   AND status = " + StatusWords.SQL_PENDING + " AND (lease_until IS NULL OR lease_until <= $1) FOR UPDATE SKIP LOCKED)"
                + lease(policy, "$4", "offered");
    }

    /**
     * The UPDATE that leases the rows of CTE {@code due} and answers what sending them needs, the address from CTE
     * {@code source} (delivery id and {@link #ADDRESS}), which has read the destinations already.
     */
    private static String lease(DeliveryPolicy policy, String until, String source) {
        return " UPDATE " + policy.deliveries() + " d SET lease_until = " + until
                + " FROM due JOIN " + source + " t ON t.id = due.id, " + policy.events() + " ev"
                + " WHERE d.id = due.id AND ev.id = d.event_id"
                + " RETURNING d.id, d.destination_id, d.attempts + 1 AS attempt_number, d.cycle_failures AS failures,"
                + " d.lease_until AS lease, ev.id AS event_id, ev.type AS event_type, ev.mode AS mode, ev.body AS body,"
                + " ev.trace_parent, t.url, t.secret, t.previous_secret, t.previous_secret_expires_at, t.secret_bound_to";
    }

    /**
     * $1 ids, $2 attempt numbers, $3 success, $4 status codes, $5 latencies, $6 errors, $7 excerpts, $8 new status,
     * $9 next attempt, $10 destinations, $11 leases, $12 urls, $13 now, $14 (in-order only) the lease of the next deliveries.
     */
    static String recordSql(DeliveryPolicy policy) {
        boolean pauses = policy.pauseAfter().isPresent();
        StringBuilder s = new StringBuilder()
                .append("WITH r AS (SELECT i.*, $13::timestamptz AS at FROM unnest($1::text[], $2::int4[], $3::bool[],")
                .append(" $4::int4[], $5::int8[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[],")
                .append(" $11::timestamptz[], $12::text[]) AS i(id, n, ok, code, ms, error, excerpt, status, next_at, dest, lease, url)),")
                .append(" u AS (UPDATE ").append(policy.deliveries()).append(" d SET status = r.status, next_attempt_at = r.next_at,")
                .append(" lease_until = NULL, attempts = d.attempts + 1,")
                .append(" cycle_failures = CASE WHEN r.ok THEN 0 ELSE d.cycle_failures + 1 END,")
                .append(" last_attempt_at = r.at, last_status_code = r.code, last_error = r.error,")
                .append(" delivered_at = CASE WHEN r.ok THEN r.at ELSE d.delivered_at END,")
                .append(" dead_at = CASE WHEN r.status = " + StatusWords.SQL_DEAD + " THEN r.at ELSE d.dead_at END, updated_at = r.at")
                .append(" FROM r WHERE d.id = r.id AND d.status = " + StatusWords.SQL_PENDING + " AND d.lease_until = r.lease RETURNING d.id),")
                .append(" a AS (INSERT INTO ").append(policy.attempts())
                .append(" (delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms, error, response_excerpt)")
                .append(" SELECT r.id, r.n, r.at, r.url, r.ok, r.code, r.ms, r.error, r.excerpt FROM r JOIN u ON u.id = r.id)");
        if (pauses) {
            String paused = "NOT r.ok AND t.paused_at IS NULL AND t.consecutive_failures + 1 >= " + policy.pauseAfter().getAsInt();
            s.append(", p AS (UPDATE ").append(policy.destinations()).append(" t SET")
                    .append(" consecutive_failures = CASE WHEN r.ok THEN 0 ELSE t.consecutive_failures + 1 END,")
                    .append(" paused_at = CASE WHEN ").append(paused).append(" THEN r.at ELSE t.paused_at END")
                    .append(" FROM r JOIN u ON u.id = r.id WHERE t.id = r.dest AND NOT (r.ok AND t.consecutive_failures = 0)")
                    .append(" RETURNING t.id, t.open)"); // a success on a destination with no failures changes nothing: no write
        }
        if (policy.ordering() != Ordering.IN_ORDER_PER_DESTINATION) {
            return s.append(" SELECT count(*) AS recorded FROM u").toString();
        }
        String open = pauses ? "CASE WHEN p.id IS NULL THEN t.open ELSE p.open END" : "t.open";
        return s.append(", nx AS (SELECT o.id, ").append(ADDRESS).append(" FROM r JOIN u ON u.id = r.id JOIN ").append(policy.destinations())
                .append(" t ON t.id = r.dest").append(pauses ? " LEFT JOIN p ON p.id = r.dest" : "")
                .append(" CROSS JOIN LATERAL (SELECT d.id FROM ").append(policy.deliveries())
                .append(" d WHERE d.destination_id = r.dest AND d.status = " + StatusWords.SQL_PENDING + " AND d.next_attempt_at <= $13")
                .append(" AND (d.lease_until IS NULL OR d.lease_until <= $13) AND d.id <> ALL ($1::text[])")
                .append(" ORDER BY d.seq LIMIT 1) o WHERE ").append(open).append("),")
                .append(" due AS (SELECT id FROM ").append(policy.deliveries()).append(" WHERE id = ANY (ARRAY(SELECT id FROM nx))")
                .append(" AND status = " + StatusWords.SQL_PENDING + " AND (lease_until IS NULL OR lease_until <= $13) FOR UPDATE SKIP LOCKED)")
                .append(lease(policy, "$14", "nx")).toString();
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }

    static OffsetDateTime at(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime t = row.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }
}
