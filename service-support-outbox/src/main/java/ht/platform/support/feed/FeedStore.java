package ht.platform.support.feed;

import ht.platform.support.outbox.DeliveryPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The feed's SQL over the service's outbox and its table {@code destinations}, on the plain reactive client. */
@ApplicationScoped
public class FeedStore {

    public record FeedEvent(long position, String id, String type, Instant createdAt, byte[] body, String traceParent) { }

    /** A page read in one snapshot: its events, and the highest position of the feed that snapshot saw. */
    public record Page(List<FeedEvent> events, long head) { }

    /** The destination whose subscriptions filter the feed and whose secret signs it. */
    public record Destination(String id, String[] events, String secret, String previousSecret,
                              Instant previousSecretExpiresAt, String secretBoundTo, String delivery) { }

    /** How far a destination has read its feed: its last cursor, when, and how many events it is behind (capped). */
    public record Lag(Optional<Long> position, Optional<Instant> readAt, long behind) { }

    /** The most events {@link #lag} counts. */
    public static final int LAG_CAP = 10_000;

    private final Pool pool;
    private final FeedAdmission admission;

    @Inject
    public FeedStore(Pool pool, FeedAdmission admission) {
        this.pool = pool;
        this.admission = admission;
    }

    /** One statement under the feed's share of the pool. */
    private Uni<RowSet<Row>> execute(String sql, Tuple args) {
        return admission.querying(() -> pool.preparedQuery(sql).execute(args));
    }

    /**
     * {@code id} when given, whatever its delivery (the caller refuses a pushed one), else the owner's first pull
     * destination of the mode.
     */
    public Uni<Optional<Destination>> destination(DeliveryPolicy policy, String owner, String mode, String id) {
        return execute("SELECT id, events, secret, previous_secret, previous_secret_expires_at, secret_bound_to,"
                        + " delivery FROM " + policy.destinations() + " WHERE owner_id = $1 AND mode = $2"
                        + " AND delivery IS NOT NULL AND ($3::text IS NULL AND delivery = 'pull' OR id = $3) ORDER BY created_at, id LIMIT 1",
                        Tuple.of(owner, mode, id))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    Row r = rows.iterator().next();
                    return Optional.of(new Destination(r.getString("id"), r.getArrayOfStrings("events"),
                            r.getString("secret"), r.getString("previous_secret"),
                            instant(r.getOffsetDateTime("previous_secret_expires_at")), r.getString("secret_bound_to"),
                            r.getString("delivery")));
                });
    }

    /** Up to {@code limit} events after {@code after} of the given types (null: all), with the feed's head. */
    public Uni<Page> page(DeliveryPolicy policy, String owner, String mode, long after, String[] types, int limit) {
        return execute(pageSql(policy.schema()), Tuple.of(owner, mode, after, types, limit))
                .map(FeedStore::page);
    }

    static String pageSql(String schema) {
        String events = schema + ".outbox_events";
        return "SELECT h.head, p.position, p.id, p.type, p.created_at, p.body, p.trace_parent FROM"
                + " (SELECT COALESCE((" + head(events) + "), 0) AS head) h"
                + " LEFT JOIN LATERAL (SELECT position, id, type, created_at, body, trace_parent FROM " + events
                + "   WHERE owner_id = $1 AND mode = $2 AND position > $3 AND position IS NOT NULL"
                + "   AND ($4::text[] IS NULL OR type = ANY ($4)) ORDER BY position LIMIT $5) p ON true"
                + " ORDER BY p.position";
    }

    /**
     * The highest position of owner $1 in mode $2, as one step back along the feed index. Written as {@code max()},
     * PostgreSQL may plan it as an aggregate over every position of the owner (it did, with statistics older than
     * the owner's events), and every read of the feed then reads the owner's whole history.
     */
    private static String head(String events) {
        return "SELECT position FROM " + events + " WHERE owner_id = $1 AND mode = $2 AND position IS NOT NULL"
                + " ORDER BY position DESC LIMIT 1";
    }

    private static Page page(RowSet<Row> rows) {
        List<FeedEvent> events = new ArrayList<>(rows.size());
        long head = 0;
        for (Row r : rows) {
            head = r.getLong("head");
            if (r.getValue("position") != null) {
                events.add(new FeedEvent(r.getLong("position"), r.getString("id"), r.getString("type"),
                        instant(r.getOffsetDateTime("created_at")), r.getBuffer("body").getBytes(), r.getString("trace_parent")));
            }
        }
        return new Page(events, head);
    }

    /** Where a cursor stands on its feed: when the first event after it was created (if any), and the feed's head. */
    public record After(Optional<Instant> firstCreatedAt, long head) { }

    public Uni<After> after(DeliveryPolicy policy, String owner, String mode, long after) {
        String events = policy.schema() + ".outbox_events";
        return execute("SELECT (SELECT created_at FROM " + events + " WHERE owner_id = $1 AND mode = $2 AND position > $3"
                        + " AND position IS NOT NULL ORDER BY position LIMIT 1) AS first, COALESCE((" + head(events)
                        + "), 0) AS head", Tuple.of(owner, mode, after))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new After(Optional.ofNullable(instant(r.getOffsetDateTime("first"))), r.getLong("head"));
                });
    }

    /**
     * The oldest position still readable: right before the lowest position of the events created at or after
     * {@code cutoff}. By position, not by creation time: an event created earlier can commit later and be numbered
     * after one created after it, and starting before the earliest-created one would skip the other.
     */
    public Uni<Long> oldest(DeliveryPolicy policy, String owner, String mode, Instant cutoff) {
        String events = policy.schema() + ".outbox_events";
        return execute("SELECT COALESCE((SELECT position - 1 FROM " + events + " WHERE owner_id = $1"
                        + " AND mode = $2 AND position IS NOT NULL AND created_at >= $3 ORDER BY position LIMIT 1),"
                        + " (" + head(events) + "), 0) AS oldest", Tuple.of(owner, mode, at(cutoff)))
                .map(rows -> rows.iterator().next().getLong("oldest"));
    }

    /**
     * Remembers how far a destination has read: only forwards, and a position already stored (an empty wait's) writes
     * nothing at all, not even a lock on the row.
     */
    public Uni<Void> remember(DeliveryPolicy policy, String destinationId, long position, Instant at) {
        String cursors = policy.schema() + ".outbox_feed_cursors";
        return execute("INSERT INTO " + cursors + " (destination_id, position, read_at) SELECT $1, $2, $3"
                        + " WHERE NOT EXISTS (SELECT 1 FROM " + cursors + " WHERE destination_id = $1 AND position >= $2)"
                        + " ON CONFLICT (destination_id) DO UPDATE SET position = excluded.position, read_at = excluded.read_at"
                        + " WHERE " + cursors + ".position < excluded.position", Tuple.of(destinationId, position, at(at)))
                .replaceWithVoid();
    }

    /**
     * How far one destination has read its feed, and how many of its events lie beyond: those numbered after its
     * cursor and those not numbered yet (numbered when the feed is next read, always after any cursor).
     */
    public Uni<Lag> lag(DeliveryPolicy policy, String destinationId) {
        String s = policy.schema();
        return execute("SELECT c.position, c.read_at, (SELECT count(*) FROM (SELECT 1 FROM " + s
                        + ".outbox_events e WHERE e.owner_id = t.owner_id AND e.mode = t.mode"
                        + "   AND (e.position > COALESCE(c.position, 0) OR (e.position IS NULL AND e.on_feed))"
                        + "   AND (t.events IS NULL OR e.type = ANY (t.events)) LIMIT " + LAG_CAP + ") x) AS behind"
                        + " FROM " + s + ".destinations t LEFT JOIN " + s + ".outbox_feed_cursors c"
                        + "   ON c.destination_id = t.id WHERE t.id = $1", Tuple.of(destinationId))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return new Lag(Optional.empty(), Optional.empty(), 0);
                    }
                    Row r = rows.iterator().next();
                    return new Lag(Optional.ofNullable(r.getLong("position")),
                            Optional.ofNullable(instant(r.getOffsetDateTime("read_at"))), r.getLong("behind"));
                });
    }

    static String[] types(String[] subscribed, List<String> asked) {
        if (asked.isEmpty()) {
            return subscribed;
        }
        if (subscribed == null) {
            return asked.toArray(String[]::new);
        }
        List<String> allowed = Arrays.asList(subscribed);
        return asked.stream().filter(allowed::contains).toArray(String[]::new);
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
