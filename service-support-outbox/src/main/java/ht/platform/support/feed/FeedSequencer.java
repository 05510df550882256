package ht.platform.support.feed;

import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.sql.ReadOnlyEviction;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gives the events that have committed their feed positions, when the feed is read. One sequencer at a time per outbox (a transaction-scoped
 * advisory lock, taken in its own statement so that the numbering statement's snapshot starts after the previous
 * sequencer committed), numbering what it sees after the highest position so far, in the order the events were
 * written, and notifying {@code <schema>_feed} with the owners and modes it numbered. A transaction that commits
 * late is numbered by a later run, above every position a reader may already have passed.
 */
@ApplicationScoped
public class FeedSequencer {

    private static final Logger LOG = Logger.getLogger(FeedSequencer.class);

    /**
     * One outbox's runs on this replica, one at a time: {@code next} are the readers waiting for a run that starts after
     * they asked, {@code current} the ones the run in progress answers.
     */
    private static final class Run {
        final AtomicBoolean running = new AtomicBoolean();
        final AtomicBoolean again = new AtomicBoolean();
        final Queue<CompletableFuture<Void>> next = new ConcurrentLinkedQueue<>();
        final List<CompletableFuture<Void>> current = new ArrayList<>();
        /**
         * Commits notified so far (from 1: what committed before this replica listened counts as one), and how many of
         * them the last completed run started after (all numbered).
         */
        final AtomicLong notified = new AtomicLong(1);
        volatile long numbered;
        long started;
    }

    private final Pool pool;
    private final FeedSettings settings;
    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final Map<String, String> sql = new ConcurrentHashMap<>();

    /** Absent in the feed's own tests, which put a sequencer together by hand. */
    @Inject
    ReadOnlyEviction readOnlyEviction;

    @Inject
    public FeedSequencer(Pool pool, FeedSettings settings) {
        this.pool = pool;
        this.settings = settings;
    }

    /** The channel a sequencer notifies with the {@code owner mode} pairs (comma separated, or {@code *}) it numbered. */
    public static String channel(DeliveryPolicy policy) {
        return policy.schema() + "_feed";
    }

    /** Numbers what has committed, now or right after the run in progress; safe to call from anywhere, often. */
    public void wake(DeliveryPolicy policy) {
        Run run = run(policy);
        if (!run.running.compareAndSet(false, true)) {
            run.again.set(true);
            return;
        }
        run.again.set(false);
        run.started = run.notified.get();
        for (CompletableFuture<Void> f; (f = run.next.poll()) != null; ) {
            run.current.add(f);
        }
        sequence(policy).subscribe().with(n -> finished(policy, run, n >= settings.sequenceBatch(), true), e -> {
            LOG.warnf("numbering the %s feed failed: %s", policy.name(), e.toString());
            if (readOnlyEviction != null) {
                readOnlyEviction.seen(e);
            }
            finished(policy, run, false, false);
        });
    }

    private void finished(DeliveryPolicy policy, Run run, boolean more, boolean succeeded) {
        if (succeeded && !more) {
            run.numbered = Math.max(run.numbered, run.started);
        }
        if (!more) {
            // a failed run answers too: what it did not number is numbered later, above every cursor read so far
            run.current.forEach(f -> f.complete(null));
            run.current.clear();
        }
        run.running.set(false);
        if (more || run.again.getAndSet(false) || !run.next.isEmpty()) {
            wake(policy);
        }
    }

    /**
     * The outbox's notification of a commit: numbered at once only while a read is held on this replica (its reader
     * waits for it); otherwise the next read numbers what committed meanwhile ({@link #catchUp}), so a service whose
     * feed nobody reads pays nothing for it.
     */
    public void committed(DeliveryPolicy policy, FeedWaiters waiters) {
        // counted before the held reads are looked at: a read registered after this count is woken by the run below
        run(policy).notified.incrementAndGet();
        ticked(policy, waiters);
    }

    /** The periodic safety net for a missed notification: numbers what committed while reads are held. */
    public void ticked(DeliveryPolicy policy, FeedWaiters waiters) {
        if (waiters.held() > 0) {
            wake(policy);
        }
    }

    /**
     * Completes when everything committed before the call is numbered: after a run of this replica that started
     * later, shared by every reader asking meanwhile (one sequencer transaction at a time, however many readers).
     */
    public Uni<Void> catchUp(DeliveryPolicy policy) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        run(policy).next.add(done);
        wake(policy);
        return Uni.createFrom().completionStage(done);
    }

    /**
     * For a read already registered as held: {@link #catchUp} only when a commit was notified since the last completed
     * run started (one notified later wakes the sequencer and then this read). A commit whose notification has not
     * arrived yet is numbered when it does, so only a read that does not wait needs {@link #catchUp} every time.
     */
    public Uni<Void> catchUpHeld(DeliveryPolicy policy) {
        Run run = run(policy);
        return run.numbered == run.notified.get() ? Uni.createFrom().voidItem() : catchUp(policy);
    }

    private Run run(DeliveryPolicy policy) {
        return runs.computeIfAbsent(policy.schema(), s -> new Run());
    }

    /** One sequencer transaction; answers how many events it numbered. */
    public Uni<Integer> sequence(DeliveryPolicy policy) {
        String statement = sql.computeIfAbsent(policy.schema(), s -> statement(policy));
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_advisory_xact_lock($1)")
                .execute(Tuple.of(lockKey(policy)))
                .chain(() -> conn.preparedQuery(statement).execute(Tuple.of(settings.sequenceBatch())))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return row.getLong("numbered").intValue();
                }));
    }

    private static long lockKey(DeliveryPolicy policy) {
        return 0x6665656400000000L | (policy.schema().hashCode() & 0xffffffffL);
    }

    static String statement(DeliveryPolicy policy) {
        String events = policy.schema() + ".outbox_events";
        // the batch is an array joined through the primary key one id at a time: as a row set, a plan made with
        // statistics from before the events were written hash-joined it with every event of the outbox
        return "WITH todo AS (SELECT array_agg(id ORDER BY written) AS ids FROM (SELECT id, written FROM " + events
                + "   WHERE position IS NULL AND on_feed ORDER BY written LIMIT $1) b),"
                + " base AS (SELECT COALESCE((SELECT position FROM " + events
                + "   ORDER BY position DESC NULLS LAST LIMIT 1), 0) AS m),"
                + " u AS (UPDATE " + events + " e SET position = base.m + t.n, committed_at = CASE WHEN"
                + "   current_setting('track_commit_timestamp') = 'on' THEN pg_xact_commit_timestamp(e.xmin) END"
                + "   FROM todo, unnest(todo.ids) WITH ORDINALITY AS t(id, n), base WHERE e.id = t.id"
                + "   RETURNING e.owner_id, e.mode),"
                + " k AS (SELECT count(*) AS numbered, string_agg(DISTINCT owner_id || ' ' || mode, ',') AS keys FROM u)"
                + " SELECT numbered, (SELECT count(*) FROM (SELECT pg_notify('" + channel(policy) + "',"
                + "   CASE WHEN length(keys) > 7000 THEN '*' ELSE keys END) FROM k WHERE numbered > 0) w) AS woken FROM k";
    }
}
