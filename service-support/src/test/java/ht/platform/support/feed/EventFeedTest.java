package ht.platform.support.feed;

import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import ht.platform.support.trace.EventTraces;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.DeliverySigner;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxWakeup;
import ht.platform.support.outbox.StatusWords;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.support.testing.GenericPlans;
import ht.platform.support.testing.PlatformTestEnvironment;
import ht.platform.support.testing.TestDatabase;
import ht.platform.support.testing.Waiting;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feed on its own, against a real PostgreSQL: two replicas (each with its own pool, sequencer, held reads and
 * LISTEN connection) over one outbox; transactions that commit out of the order they wrote; a replica restarted while
 * a read is held; retention. No Quarkus application: the parts are put together here as CDI would.
 */
class EventFeedTest {

    static final String SCHEMA = "outbox_feed_test";
    static final String SECRET = "whsec_feedtest";

    static io.vertx.core.Vertx vertx;
    static Map<String, String> db;
    static SecretBox secretBox;
    static FeedCursor cursors;

    final MovableClock clock = new MovableClock(Clock.systemUTC());
    final DeliveryPolicy policy = new DeliveryPolicy(new DeliveryPolicy.Rules("feedtest", SCHEMA,
            Ordering.CAPPED_PER_DESTINATION, RetrySchedule.parse("1m"), SignatureScheme.GATEWAY,
            d -> Map.of("X-Gateway-Event", d.eventType()), OptionalInt.empty(), new StatusWords("pending", "delivered", "dead"))) { };
    final List<Replica> replicas = new ArrayList<>();

    /** One replica of a service: its own pool, sequencer, held reads and LISTEN connection. */
    final class Replica {
        final Pool pool;
        final FeedWaiters waiters = new FeedWaiters();
        final FeedSequencer sequencer;
        final OutboxWakeup wakeup = OutboxWakeup.connectingTo(vertx, db.get("quarkus.datasource.reactive.url"),
                db.get("quarkus.datasource.username"), db.get("quarkus.datasource.password"));
        final FeedAdmission admission = new FeedAdmission(settings(), 20);
        final EventFeed feed;
        /** The events' notifications this replica has handled (payload {@code e}), and whether a probe came back. */
        final AtomicInteger notified = new AtomicInteger();
        final AtomicBoolean heard = new AtomicBoolean();

        Replica() {
            this(pool());
        }

        Replica(Pool pool) {
            this.pool = pool;
            this.sequencer = new FeedSequencer(pool, settings());
            this.feed = new EventFeed(new FeedStore(pool, admission), sequencer, waiters,
                    new DeliverySigner(secretBox, webhookSettings()), settings(), cursors, clock, EventTraces.off());
            wakeup.listen(policy.channel(), payload -> {
                sequencer.committed(policy, waiters);
                if ("e".equals(payload)) {
                    notified.incrementAndGet();
                } else if ("probe".equals(payload)) {
                    heard.set(true);
                }
            });
            wakeup.listen(FeedSequencer.channel(policy), payload -> waiters.signal(SCHEMA, payload));
            replicas.add(this);
        }

        /** Until this replica's LISTEN is in place: a probe notification has come back. */
        void awaitListening() {
            Waiting.until("the replica listening on " + policy.channel(), () -> {
                sql(pool, "SELECT pg_notify('" + policy.channel() + "', 'probe')");
                return heard.get();
            });
        }

        EventFeed.Page read(String after, int limit, Duration wait) {
            return feed.read(policy, new EventFeed.Query("owner", "test", after, limit, wait, List.of(), null))
                    .await().atMost(wait.plusSeconds(10));
        }

        void stop() {
            wakeup.close();
            pool.closeAndAwait();
            replicas.remove(this);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        db = new PlatformTestEnvironment().start();
        vertx = io.vertx.core.Vertx.vertx();
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        secretBox = new SecretBox(key);
        cursors = new FeedCursor(secretBox);
        Pool pool = pool();
        sql(pool, "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        sql(pool, "CREATE SCHEMA " + SCHEMA);
        for (String migration : List.of("V40__outbox.sql", "V42__outbox_lanes.sql", "V43__outbox_feed.sql",
                "V51__feed_head_index.sql", "V55__outbox_trace_context.sql", "V57__destinations.sql")) {
            sql(pool, new String(EventFeedTest.class.getResourceAsStream("/db/outbox/" + migration).readAllBytes(),
                    StandardCharsets.UTF_8).replace("${flyway:defaultSchema}", SCHEMA));
        }
        pool.closeAndAwait();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    @BeforeEach
    void clean() {
        Replica r = new Replica();
        sql(r.pool, "TRUNCATE " + SCHEMA + ".outbox_attempts, " + SCHEMA + ".outbox_deliveries, " + SCHEMA + ".outbox_events, " + SCHEMA
                + ".outbox_feed_cursors, " + SCHEMA + ".destinations");
        r.pool.preparedQuery("INSERT INTO " + SCHEMA + ".destinations (id, owner_id, mode, kind, secret,"
                        + " secret_bound_to, created_at) VALUES ('pull_1', 'owner', 'test', 'pull', $1, 'pull_1', now())")
                .execute(Tuple.of(secretBox.sealText(SECRET, "pull_1"))).await().atMost(Duration.ofSeconds(10));
        r.stop();
    }

    @AfterEach
    void close() {
        new ArrayList<>(replicas).forEach(Replica::stop);
    }

    @Test
    void aTransactionThatCommitsLateIsReadAfterTheOnesBeforeItNeverSkipped() {
        Replica one = new Replica();
        Replica two = new Replica();
        SqlConnection late = one.pool.getConnectionAndAwait();
        late.query("BEGIN").executeAndAwait();
        write(late, "evt_written_first", "thing.created");
        write(two.pool, "evt_committed_first", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));

        EventFeed.Page first = one.read("start", 10, Duration.ZERO);
        assertEquals(List.of("evt_committed_first"), ids(first));

        late.query("COMMIT").executeAndAwait();
        late.closeAndAwait();
        two.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        EventFeed.Page second = two.read(first.nextCursor(), 10, Duration.ZERO);
        assertEquals(List.of("evt_written_first"), ids(second));
        assertEquals(List.of(), ids(one.read(second.nextCursor(), 10, Duration.ZERO)));
    }

    /** Seen in the failover benchmark: the first event numbered was never read from {@code start}. */
    @Test
    void startReadsFromTheFirstNumberedEventEvenWhenAnEarlierCreatedOneCommittedAfterIt() {
        Replica one = new Replica();
        SqlConnection late = one.pool.getConnectionAndAwait();
        late.query("BEGIN").executeAndAwait();
        write(late, "evt_created_first", "thing.created");
        clock.advance(Duration.ofMillis(1));
        write(one.pool, "evt_created_second", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        late.query("COMMIT").executeAndAwait();
        late.closeAndAwait();
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));

        assertEquals(List.of("evt_created_second", "evt_created_first"), ids(one.read("start", 10, Duration.ZERO)));
    }

    @Test
    void eventsFromTwoReplicasCommittedInAnyOrderAreReadExactlyOnceInCommitOrderWithValidSignatures() throws Exception {
        Replica one = new Replica();
        Replica two = new Replica();
        int perWriter = 60;
        List<String> commitOrder = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> writeMany(one.pool, "a", perWriter, commitOrder));
        CompletableFuture<Void> b = CompletableFuture.runAsync(() -> writeMany(two.pool, "b", perWriter, commitOrder));

        List<EventFeed.Item> read = new ArrayList<>();
        String cursor = "start";
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (read.size() < 2 * perWriter && System.nanoTime() < until) {
            Replica reader = read.size() % 2 == 0 ? one : two; // follow the feed through both replicas
            EventFeed.Page page = reader.read(cursor, 7, Duration.ofSeconds(2));
            read.addAll(page.items());
            cursor = page.nextCursor();
        }
        a.get(30, TimeUnit.SECONDS);
        b.get(30, TimeUnit.SECONDS);

        List<String> ids = read.stream().map(EventFeed.Item::id).toList();
        assertEquals(2 * perWriter, ids.size(), "every event read");
        assertEquals(2 * perWriter, new HashSet<>(ids).size(), "none twice");
        assertEquals(new HashSet<>(commitOrder), new HashSet<>(ids));
        assertEquals(List.of(), ids(one.read(cursor, 10, Duration.ZERO)), "nothing after the last cursor");
        WebhookVerifier verifier = new WebhookVerifier(SignatureScheme.GATEWAY, List.of(SECRET));
        for (EventFeed.Item item : read) {
            assertTrue(verifier.verify(item.headers(), item.body()).valid(), "signature of " + item.id());
            assertEquals("thing.created", item.headers().get("X-Gateway-Event"));
        }
        // the feed's order is the order the sequencer saw commits: each writer's own events keep theirs
        for (String writer : List.of("a", "b")) {
            List<String> own = ids.stream().filter(id -> id.startsWith("evt_" + writer)).toList();
            List<String> committed = commitOrder.stream().filter(id -> id.startsWith("evt_" + writer)).toList();
            assertEquals(committed, own);
        }
    }

    @Test
    void aHeldReadAnswersWhenAnotherReplicaCommitsAndSurvivesItsReplicaRestarting() throws Exception {
        Replica one = new Replica();
        Replica two = new Replica();
        String cursor = one.read("latest", 10, Duration.ZERO).nextCursor();

        CompletableFuture<EventFeed.Page> held = one.feed.read(policy, new EventFeed.Query("owner", "test", cursor, 10,
                Duration.ofSeconds(20), List.of(), null)).subscribeAsCompletionStage();
        awaitHeld(one, 1);
        long start = System.nanoTime();
        write(two.pool, "evt_woken", "thing.created");
        EventFeed.Page page = held.get(10, TimeUnit.SECONDS);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(List.of("evt_woken"), ids(page));
        assertTrue(ms < 5000, "woken by the notification, not the end of the wait: " + ms + " ms");

        // a read held on a replica that goes away: the client reads again from its cursor on a new one
        CompletableFuture<EventFeed.Page> lost = one.feed.read(policy, new EventFeed.Query("owner", "test",
                page.nextCursor(), 10, Duration.ofSeconds(20), List.of(), null)).subscribeAsCompletionStage();
        awaitHeld(one, 1);
        one.stop();
        write(two.pool, "evt_during_restart", "thing.created");
        Replica restarted = new Replica();
        EventFeed.Page again = restarted.read(page.nextCursor(), 10, Duration.ofSeconds(10));
        assertEquals(List.of("evt_during_restart"), ids(again));
        lost.cancel(true);
    }

    @Test
    void aFeedNobodyReadsCostsNothingUntilItIsRead() throws Exception {
        Replica one = new Replica();
        one.awaitListening();
        write(one.pool, "evt_unread_1", "thing.created");
        write(one.pool, "evt_unread_2", "thing.created");
        Waiting.until("both notifications handled", () -> one.notified.get() >= 2); // with no read held, nothing is numbered
        assertEquals(2L, one.pool.query("SELECT count(*) AS n FROM " + SCHEMA + ".outbox_events WHERE position IS NULL")
                .executeAndAwait().iterator().next().getLong("n"));
        assertEquals(List.of("evt_unread_1", "evt_unread_2"), ids(one.read("start", 10, Duration.ZERO)));
        assertEquals(0L, one.pool.query("SELECT count(*) AS n FROM " + SCHEMA + ".outbox_events WHERE position IS NULL")
                .executeAndAwait().iterator().next().getLong("n"));
    }

    @Test
    void aHeldReadFindsAtOnceWhatCommittedWhileNoReadWasHeldAndIsWokenForWhatCommitsAfter() throws Exception {
        Replica one = new Replica();
        one.awaitListening();
        String cursor = one.read("latest", 10, Duration.ZERO).nextCursor();
        write(one.pool, "evt_while_nobody_waited", "thing.created");
        Waiting.until("its notification handled", () -> one.notified.get() >= 1); // with no read held, it numbered nothing
        // no periodic tick here: a held read that did not catch up would wait its 20 s and answer empty
        EventFeed.Page found = one.read(cursor, 10, Duration.ofSeconds(20));
        assertEquals(List.of("evt_while_nobody_waited"), ids(found));

        CompletableFuture<EventFeed.Page> held = one.feed.read(policy, new EventFeed.Query("owner", "test",
                found.nextCursor(), 10, Duration.ofSeconds(20), List.of(), null)).subscribeAsCompletionStage();
        awaitHeld(one, 1);
        write(one.pool, "evt_while_held", "thing.created");
        assertEquals(List.of("evt_while_held"), ids(held.get(15, TimeUnit.SECONDS)));
    }

    @Test
    void aCursorOlderThanTheRetentionIsGoneAndTheOldestValidOneReadsOn() {
        Replica one = new Replica();
        write(one.pool, "evt_old", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        String beforeOld = one.read("start", 10, Duration.ZERO).items().isEmpty() ? null : cursors.of("owner", "test", 0);
        clock.advance(Duration.ofDays(31));
        write(one.pool, "evt_new", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));

        ApiException gone = assertThrows(ApiException.class, () -> one.read(beforeOld, 10, Duration.ZERO));
        assertEquals(410, gone.status());
        assertEquals("CURSOR_EXPIRED", gone.code());
        String oldest = gone.more().get("oldest_cursor");
        assertEquals(List.of("evt_new"), ids(one.read(oldest, 10, Duration.ZERO)));
        assertEquals(List.of("evt_new"), ids(one.read("start", 10, Duration.ZERO)), "the feed starts within retention");
    }

    @Test
    void pingsAreNotOnTheFeedAndTypesFilterWithoutRereadingWhatWasSkipped() {
        Replica one = new Replica();
        write(one.pool, "evt_kept", "thing.created");
        write(one.pool, "evt_other", "thing.deleted");
        one.pool.preparedQuery("INSERT INTO " + SCHEMA + ".outbox_events (id, owner_id, mode, type, body, created_at, on_feed)"
                + " VALUES ('evt_ping', 'owner', 'test', 'webhook.ping', '\\x7b7d', now(), false)").execute()
                .await().atMost(Duration.ofSeconds(10));
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        assertEquals(List.of("evt_kept", "evt_other"), ids(one.read("start", 10, Duration.ZERO)));

        EventFeed.Page deleted = one.feed.read(policy, new EventFeed.Query("owner", "test", "start", 10, Duration.ZERO,
                List.of("thing.deleted"), null)).await().atMost(Duration.ofSeconds(10));
        assertEquals(List.of("evt_other"), ids(deleted));
        clock.advance(Duration.ofSeconds(3)); // a destination's cursor is kept at most every 2 s
        EventFeed.Page none = one.feed.read(policy, new EventFeed.Query("owner", "test", deleted.nextCursor(), 10,
                Duration.ZERO, List.of("thing.created"), null)).await().atMost(Duration.ofSeconds(10));
        assertEquals(List.of(), ids(none));
        assertEquals(position(deleted.nextCursor()), position(none.nextCursor()));
        assertFalse(none.hasMore());
        long remembered = one.pool.query("SELECT position FROM " + SCHEMA + ".outbox_feed_cursors WHERE destination_id = 'pull_1'")
                .executeAndAwait().iterator().next().getLong("position");
        assertEquals(position(deleted.nextCursor()), remembered, "the destination's cursor, for its lag");
    }

    @Test
    void anEmptyWaitWritesNothing() throws Exception {
        Replica one = new Replica();
        write(one.pool, "evt_read", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        EventFeed.Page read = one.read("start", 10, Duration.ZERO);
        assertEquals(List.of("evt_read"), ids(read));
        clock.advance(Duration.ofSeconds(3)); // past the 2 s between two remembered positions
        assertEquals(List.of(), ids(one.read(read.nextCursor(), 10, Duration.ZERO))); // remembers where it stands
        String before = cursorRow(one.pool);
        clock.advance(Duration.ofSeconds(3));

        CompletableFuture<EventFeed.Page> held = one.feed.read(policy, new EventFeed.Query("owner", "test",
                read.nextCursor(), 10, Duration.ofSeconds(20), List.of(), null)).subscribeAsCompletionStage();
        awaitHeld(one, 1);
        clock.advance(Duration.ofSeconds(21));
        one.waiters.signal(SCHEMA, "*"); // woken past its deadline: it answers empty
        EventFeed.Page empty = held.get(15, TimeUnit.SECONDS);
        assertEquals(List.of(), ids(empty));
        assertEquals(before, cursorRow(one.pool), "the remembered position's row is untouched (no new version, no lock)");
        assertEquals(position(read.nextCursor()), position(empty.nextCursor()));
    }

    @Test
    void aCursorBeyondTheHeadIsRefusedAndNeverMovesTheRememberedPosition() {
        Replica one = new Replica();
        write(one.pool, "evt_head", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        EventFeed.Page read = one.read("start", 10, Duration.ZERO);
        String before = cursorRow(one.pool);
        clock.advance(Duration.ofSeconds(3));
        String forged = "cur_" + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("f1." + Long.MAX_VALUE).getBytes(StandardCharsets.US_ASCII));
        ApiException refused = assertThrows(ApiException.class, () -> one.read(forged, 10, Duration.ZERO));
        assertEquals(400, refused.status());
        assertEquals("after", refused.param());
        assertEquals(before, cursorRow(one.pool), "the remembered position is where the real cursor left it");
        assertEquals(List.of(), ids(one.read(read.nextCursor(), 10, Duration.ZERO)), "the real cursor reads on");
    }

    @Test
    void aReadableCursorOfBeforeTheSealIsRefusedWithTheWayOn() {
        Replica one = new Replica();
        write(one.pool, "evt_readable_1", "thing.created");
        write(one.pool, "evt_readable_2", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        EventFeed.Page read = one.read("start", 1, Duration.ZERO);
        String readable = "cur_" + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("f1." + position(read.nextCursor())).getBytes(StandardCharsets.US_ASCII));
        ApiException refused = assertThrows(ApiException.class, () -> one.read(readable, 10, Duration.ZERO));
        assertEquals(400, refused.status());
        assertEquals("INVALID_REQUEST", refused.code());
        assertEquals("after", refused.param());
        assertTrue(refused.getMessage().contains("after=latest") && refused.getMessage().contains("next_cursor"),
                refused.getMessage());
        assertEquals(List.of("evt_readable_2"), ids(one.read(read.nextCursor(), 10, Duration.ZERO)), "the sealed one reads on");
    }

    @Test
    void cursorsAreSealedForTheirOwnerAndModeAndSayNothingOfThePosition() {
        Replica one = new Replica();
        write(one.pool, "evt_sealed", "thing.created");
        one.sequencer.sequence(policy).await().atMost(Duration.ofSeconds(10));
        EventFeed.Page read = one.read("start", 10, Duration.ZERO);
        long at = position(read.nextCursor());
        for (String cursor : List.of(read.nextCursor(), read.items().get(0).cursor())) {
            String inside = new String(java.util.Base64.getUrlDecoder().decode(cursor.substring("cur_".length())),
                    StandardCharsets.ISO_8859_1);
            // a one-digit position turns up by chance in random ciphertext; its eight plain bytes do not
            String plain = new String(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(at).array(),
                    StandardCharsets.ISO_8859_1);
            assertFalse(inside.contains(plain), "no readable position in " + cursor);
            assertNotEquals("cur_" + at, cursor, "not the readable form");
            assertFalse(inside.contains("owner"), "no readable owner in " + cursor);
            for (String[] other : new String[][] {{"someone_else", "test"}, {"owner", "live"}}) {
                ApiException e = assertThrows(ApiException.class, () -> cursors.position(other[0], other[1], cursor));
                assertEquals(400, e.status());
            }
        }
        String tampered = read.nextCursor().substring(0, 20) + (read.nextCursor().charAt(20) == 'A' ? 'B' : 'A')
                + read.nextCursor().substring(21);
        assertThrows(ApiException.class, () -> position(tampered));
    }

    @Test
    void theFeedsQueriesTakeAtMostTheirShareOfThePool() throws Exception {
        String name = "feed-share-" + System.nanoTime();
        Replica one = new Replica(pool(10, name));
        write(one.pool, "evt_shared", "thing.created");
        List<CompletableFuture<EventFeed.Page>> reads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            reads.add(one.feed.read(policy, new EventFeed.Query("owner", "test", "start", 10, Duration.ZERO, List.of(),
                    null)).subscribeAsCompletionStage());
        }
        for (CompletableFuture<EventFeed.Page> r : reads) {
            assertEquals(List.of("evt_shared"), ids(r.get(20, TimeUnit.SECONDS)));
        }
        long opened = one.pool.preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1")
                .execute(Tuple.of(name)).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong("n");
        // the feed's 2 permits, the sequencer's transaction, and this very query
        assertTrue(opened <= 4, "connections opened by 16 concurrent reads: " + opened);
    }

    static String cursorRow(Pool pool) {
        return pool.query("SELECT xmin::text || '/' || xmax::text || '/' || ctid::text || '/' || position AS v FROM "
                + SCHEMA + ".outbox_feed_cursors WHERE destination_id = 'pull_1'").executeAndAwait().iterator().next()
                .getString("v");
    }

    /**
     * A read costs the same however long the owner's history is: the feed's head is one step back along the feed
     * index, also when the statistics were taken before most of the owner's events existed (written as {@code max()},
     * the generic plan was then an aggregate over every position of the owner, on every read).
     */
    @Test
    void aReadNearTheHeadDoesNotReadTheOwnersWholeHistory() throws SQLException {
        Replica one = new Replica();
        String insert = "INSERT INTO " + SCHEMA + ".outbox_events (id, owner_id, mode, type, body, created_at, position)"
                + " SELECT 'evt_' || g, 'owner', 'test', 'thing.created', '\\x7b7d', now(), g FROM generate_series(%d, %d) g";
        sql(one.pool, String.format(insert, 1, 3));
        sql(one.pool, "ANALYZE " + SCHEMA + ".outbox_events");
        sql(one.pool, String.format(insert, 4, 5000));

        JsonObject plan;
        try (Connection c = TestDatabase.connect()) {
            plan = GenericPlans.executedGenericPlan(c, FeedStore.pageSql(SCHEMA), "('owner', 'test', 4990, NULL, 101)");
        }

        long read = GenericPlans.rowsRead(plan, "outbox_events");
        assertTrue(read <= 11, "the page of 10 events and the head read " + read + " rows of the owner's 5,000: " + plan.encode());
    }

    /**
     * A sequencer run costs the same however many events are numbered already: its head is the first entry of the
     * position index, also when the statistics were taken while no event was numbered yet (the backlog the first feed
     * read catches up on). Asked with {@code position IS NOT NULL}, the partial feed index matched too and the generic
     * plan sorted every numbered event on each run (5,000 rows here; 592 ms at 115,000 in a benchmark run), and joined
     * the batch with every event of the outbox (events of a benchmark's size, 600 bytes).
     */
    @Test
    void aSequencerRunDoesNotReadEveryNumberedEvent() throws SQLException {
        Replica one = new Replica();
        String insert = "INSERT INTO " + SCHEMA + ".outbox_events (id, owner_id, mode, type, body, created_at, position)"
                + " SELECT 'evt_' || g, 'owner', 'test', 'thing.created', convert_to(repeat('x', 600), 'UTF8'), now(), %s"
                + " FROM generate_series(%d, %d) g";
        sql(one.pool, String.format(insert, "NULL", 1, 3));
        sql(one.pool, "ANALYZE " + SCHEMA + ".outbox_events");
        sql(one.pool, "UPDATE " + SCHEMA + ".outbox_events SET position = substr(id, 5)::bigint");
        sql(one.pool, String.format(insert, "g", 4, 5000));
        sql(one.pool, String.format(insert, "NULL", 5001, 5002));

        JsonObject plan;
        try (Connection c = TestDatabase.connect()) {
            plan = GenericPlans.executedGenericPlan(c, FeedSequencer.statement(policy), "(1000)");
        }

        long read = GenericPlans.rowsRead(plan, "outbox_events");
        assertTrue(read <= 10, "numbering 2 events after 5,000 read " + read + " rows: " + plan.encode());
    }

    // ---------------------------------------------------------------- writing events as OutboxWriter does

    void write(io.vertx.mutiny.sqlclient.SqlClient client, String id, String type) {
        client.preparedQuery("WITH ev AS (INSERT INTO " + SCHEMA + ".outbox_events (id, owner_id, mode, type, body,"
                        + " created_at) VALUES ($1, 'owner', 'test', $2, convert_to($3, 'UTF8'), $4) RETURNING id)"
                        + " SELECT pg_notify('" + policy.channel() + "', 'e') FROM ev")
                .execute(Tuple.of(id, type, "{\"id\":\"" + id + "\",\"type\":\"" + type + "\"}",
                        OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10));
    }

    /** Events in transactions that stay open a random while, so that commits overtake each other. */
    void writeMany(Pool pool, String writer, int n, List<String> commitOrder) {
        for (int i = 0; i < n; i++) {
            String id = String.format("evt_%s%03d", writer, i);
            SqlConnection conn = pool.getConnectionAndAwait();
            try {
                conn.query("BEGIN").executeAndAwait();
                write(conn, id, "thing.created");
                Thread.sleep(ThreadLocalRandom.current().nextInt(0, 15));
                conn.query("COMMIT").executeAndAwait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                conn.closeAndAwait();
            }
            commitOrder.add(id);
        }
    }

    // ---------------------------------------------------------------- parts

    static Pool pool() {
        return pool(4, "feed-test");
    }

    static Pool pool(int size, String applicationName) {
        return PgBuilder.pool().with(new PoolOptions().setMaxSize(size))
                .connectingTo(PgConnectOptions.fromUri(db.get("quarkus.datasource.reactive.url"))
                        .setUser(db.get("quarkus.datasource.username")).setPassword(db.get("quarkus.datasource.password"))
                        .addProperty("application_name", applicationName))
                .using(new io.vertx.mutiny.core.Vertx(vertx)).build();
    }

    static void sql(Pool pool, String statement) {
        pool.query(statement).execute().await().atMost(Duration.ofSeconds(30));
    }

    static FeedSettings settings() {
        return new FeedSettings() {
            public Duration retention() { return Duration.ofDays(30); }
            public int sequenceBatch() { return 5000; }
            public Limits limits() {
                return new Limits() {
                    public int perKey() { return 3; }
                    public int perOwner() { return 5; }
                    public int perReplica() { return 8; }
                    public int queries() { return 2; }
                };
            }
        };
    }

    static WebhookSettings webhookSettings() {
        return new WebhookSettings() {
            public boolean allowPrivateTargets() { return true; }
            public Duration sendTimeout() { return Duration.ofSeconds(2); }
            public Duration lease() { return Duration.ofSeconds(30); }
            public boolean deliver() { return true; }
            public int concurrency() { return 8; }
            public int maxInFlightPerDestination() { return 2; }
            public String userAgent() { return "feed-test"; }
        };
    }

    static long position(String cursor) {
        return cursors.position("owner", "test", cursor);
    }

    static List<String> ids(EventFeed.Page page) {
        return page.items().stream().map(EventFeed.Item::id).toList();
    }

    static void awaitHeld(Replica replica, int n) {
        Waiting.until(n + " reads held", () -> replica.waiters.held() >= n);
        assertEquals(n, replica.waiters.held(), "reads held");
    }
}
