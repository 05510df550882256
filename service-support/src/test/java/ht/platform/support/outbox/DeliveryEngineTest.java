package ht.platform.support.outbox;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import ht.platform.support.trace.EventTraces;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.testing.PlatformTestEnvironment;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The delivery engine on its own, against a real PostgreSQL and a real HTTP receiver, with a small test policy over
 * an outbox of its own: claim, lease and record; in-order lanes; the retry schedule to the dead state and a resend;
 * the pause rule and reactivation; two runners on one outbox; a stalled receiver; a lease that ran out. No Quarkus
 * application: the engine's parts are put together here, and the test clock moves only when no send is in flight.
 */
class DeliveryEngineTest {

    static final String SCHEMA = "outbox_engine_test";
    static final String SCHEDULE = "1m,5m";
    static final int PAUSE_AFTER = 4;

    static io.vertx.core.Vertx vertx;
    static Pool pool;
    static HttpServer receiver;
    static SecretBox secretBox;
    static final Map<String, List<String>> received = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    /** Requests being answered, in all and per destination, and the most at once per destination. */
    static final AtomicInteger inFlight = new AtomicInteger();
    static final Map<String, AtomicInteger> inFlightTo = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> mostInFlightTo = new ConcurrentHashMap<>();

    final MovableClock clock = new MovableClock(Clock.systemUTC());
    final WebhookSettings settings = settings(Duration.ofSeconds(2), Duration.ofSeconds(30));
    final TestPolicy inOrder = new TestPolicy("in_order", Ordering.IN_ORDER_PER_DESTINATION);
    final TestPolicy capped = new TestPolicy("capped", Ordering.CAPPED_PER_DESTINATION);

    /** A policy over this test's outbox: retried after 1 and 5 minutes; in order, paused after 4 failures in a row. */
    static final class TestPolicy extends DeliveryPolicy {
        TestPolicy(String name, Ordering ordering) {
            super(new Rules(name, SCHEMA, ordering, RetrySchedule.parse(SCHEDULE), SignatureScheme.GATEWAY,
                    d -> Map.of("X-Test-Event", d.eventId()),
                    ordering == Ordering.IN_ORDER_PER_DESTINATION ? OptionalInt.of(PAUSE_AFTER) : OptionalInt.empty(),
                    new StatusWords("pending", "delivered", "dead")));
        }
    }

    @BeforeAll
    static void start() throws IOException {
        Map<String, String> db = new PlatformTestEnvironment().start();
        vertx = io.vertx.core.Vertx.vertx();
        pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(8))
                .connectingTo(PgConnectOptions.fromUri(db.get("quarkus.datasource.reactive.url"))
                        .setUser(db.get("quarkus.datasource.username")).setPassword(db.get("quarkus.datasource.password")))
                .using(new io.vertx.mutiny.core.Vertx(vertx)).build();
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        sql("CREATE SCHEMA " + SCHEMA);
        for (String migration : List.of("V40__outbox.sql", "V55__outbox_trace_context.sql", "V57__destinations.sql")) {
            sql(new String(DeliveryEngineTest.class.getResourceAsStream("/db/outbox/" + migration).readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8).replace("${flyway:defaultSchema}", SCHEMA));
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        secretBox = new SecretBox(key);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.createContext("/", DeliveryEngineTest::receive);
        receiver.start();
    }

    /** {@code /{destination}}: records the event id, answers the status set for the destination (200 by default). */
    static void receive(HttpExchange ex) throws IOException {
        String destination = ex.getRequestURI().getPath().substring(1);
        inFlight.incrementAndGet();
        int now = inFlightTo.computeIfAbsent(destination, k -> new AtomicInteger()).incrementAndGet();
        mostInFlightTo.computeIfAbsent(destination, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        try {
            ex.getRequestBody().readAllBytes();
            received.computeIfAbsent(destination, k -> new CopyOnWriteArrayList<>()).add(ex.getRequestHeaders().getFirst("X-Test-Event"));
            int status = answers.getOrDefault(destination, new AtomicInteger(200)).get();
            if (status == 0) { // stalled: answers after the send timeout
                sleep(3000);
                status = 200;
            }
            ex.sendResponseHeaders(status, -1);
        } finally {
            inFlightTo.get(destination).decrementAndGet();
            inFlight.decrementAndGet();
            ex.close();
        }
    }

    @AfterAll
    static void stop() {
        receiver.stop(0);
        pool.closeAndAwait();
        vertx.close();
    }

    @BeforeEach
    void clean() {
        // a stalled answer of an earlier test (the receiver holds it past the send timeout) must not count in this one
        await("the earlier tests' requests to be answered", () -> inFlight.get() == 0);
        sql("TRUNCATE " + SCHEMA + ".outbox_attempts, " + SCHEMA + ".outbox_deliveries, " + SCHEMA + ".outbox_events, "
                + SCHEMA + ".outbox_recoveries, " + SCHEMA + ".destinations");
        received.clear();
        answers.clear();
        mostInFlightTo.clear();
    }

    // ---------------------------------------------------------------- the engine, put together as CDI would

    DeliveryRunner runner() {
        DeliveryStore store = new DeliveryStore();
        store.pool = pool;
        store.clock = clock;
        store.settings = settings;
        DeliveryRunner runner = new DeliveryRunner();
        runner.store = store;
        runner.transport = new WebhookTransport(vertx, settings);
        runner.settings = settings;
        runner.signer = new DeliverySigner(secretBox, settings);
        runner.clock = clock;
        runner.registry = new SimpleMeterRegistry();
        runner.traces = EventTraces.off();
        return runner;
    }

    static WebhookSettings settings(Duration sendTimeout, Duration lease) {
        return new WebhookSettings() {
            public boolean allowPrivateTargets() { return true; }
            public Duration sendTimeout() { return sendTimeout; }
            public Duration lease() { return lease; }
            public boolean deliver() { return true; }
            public int concurrency() { return 8; }
            public int maxInFlightPerDestination() { return 2; }
            public String userAgent() { return "engine-test"; }
        };
    }

    // ---------------------------------------------------------------- rows

    static void sql(String statement) {
        pool.query(statement).execute().await().atMost(Duration.ofSeconds(30));
    }

    static List<Row> rows(String query, Object... params) {
        List<Row> out = new ArrayList<>();
        pool.preparedQuery(query).execute(Tuple.tuple(java.util.Arrays.asList(params))).await().atMost(Duration.ofSeconds(30)).forEach(out::add);
        return out;
    }

    void destination(String id) {
        rows("INSERT INTO " + SCHEMA + ".destinations (id, owner_id, mode, kind, url, secret, secret_bound_to, created_at)"
                + " VALUES ($1, 'owner', 'test', 'push', $2, $3, $1, now())", id,
                "http://127.0.0.1:" + receiver.getAddress().getPort() + "/" + id, secretBox.sealText("whsec_test", id));
    }

    /** An event and its delivery to {@code destination}, due now; answers the event id. */
    String event(String id, String destination) {
        rows("INSERT INTO " + SCHEMA + ".outbox_events (id, owner_id, type, mode, object_id, body, created_at) VALUES ($1,"
                + " 'owner', 'thing.happened', 'test', 'obj', convert_to($2, 'UTF8'), $3)", id, "{\"id\":\"" + id + "\"}",
                DeliveryStore.at(clock.instant()));
        rows("INSERT INTO " + SCHEMA + ".outbox_deliveries (id, event_id, destination_id, status, next_attempt_at, created_at,"
                + " updated_at) VALUES ($1, $2, $3, 'pending', $4, $4, $4)", "dl_" + id, id, destination, DeliveryStore.at(clock.instant()));
        return id;
    }

    Row delivery(String eventId) {
        return rows("SELECT * FROM " + SCHEMA + ".outbox_deliveries WHERE event_id = $1", eventId).get(0);
    }

    List<Row> attempts(String eventId) {
        return rows("SELECT * FROM " + SCHEMA + ".outbox_attempts WHERE delivery_id = $1 ORDER BY attempt_number", "dl_" + eventId);
    }

    DeliveryRestarts restarts() {
        DeliveryRestarts restarts = new DeliveryRestarts();
        restarts.pool = pool;
        restarts.clock = clock;
        restarts.wakeup = new OutboxWakeup();
        return restarts;
    }

    /** Resend, as each service's API does it: the delivery is due again now, its retry cycle starts over. */
    int resend(String eventId) {
        return restarts().resend(capped, "owner", "test", "dl_" + eventId).await().atMost(Duration.ofSeconds(10));
    }

    static int drain(DeliveryRunner runner, DeliveryPolicy policy) {
        return ht.platform.support.testing.Deliveries.drainUntilIdle(runner, policy);
    }

    static void await(String what, BooleanSupplier condition) {
        ht.platform.support.testing.Waiting.until(what, Duration.ofSeconds(20), condition);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- the engine's rules

    @Test
    void aDeliveryIsClaimedLeasedSentAndRecordedOnce() {
        DeliveryRunner runner = runner();
        destination("d1");
        event("e1", "d1");
        assertEquals(1, drain(runner, capped));
        assertEquals(List.of("e1"), received.get("d1"));
        Row d = delivery("e1");
        assertEquals("delivered", d.getString("status"));
        assertEquals(null, d.getValue("lease_until"), "the lease ends with the record");
        assertEquals(1, d.getInteger("attempts"));
        List<Row> a = attempts("e1");
        assertEquals(1, a.size());
        assertEquals(1, a.get(0).getInteger("attempt_number"));
        assertTrue(a.get(0).getBoolean("success"));
        assertEquals(200, a.get(0).getInteger("status_code"));
        assertEquals(0, drain(runner, capped), "nothing is sent twice");
    }

    @Test
    void anInOrderDestinationGetsItsDeliveriesOneAtATimeInOrder() {
        DeliveryRunner runner = runner();
        destination("lane");
        destination("other");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            expected.add(event("lane-" + i, "lane"));
            event("other-" + i, "other");
        }
        assertEquals(24, drain(runner, inOrder));
        assertEquals(expected, received.get("lane"));
        assertEquals(1, mostInFlightTo.get("lane").get(), "one in flight to the in-order destination");
        assertEquals(1, mostInFlightTo.get("other").get(), "one in flight to the in-order destination");
    }

    @Test
    void aFailingDeliveryFollowsTheScheduleToDeadAndAResendDeliversItOnce() {
        DeliveryRunner runner = runner();
        destination("d1");
        answers.put("d1", new AtomicInteger(500));
        event("e1", "d1");
        assertEquals(1, drain(runner, capped));
        assertEquals("pending", delivery("e1").getString("status"));
        assertEquals(0, drain(runner, capped), "not due before its retry time");
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        assertEquals(1, drain(runner, capped));
        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        assertEquals(1, drain(runner, capped));
        Row dead = delivery("e1");
        assertEquals("dead", dead.getString("status"), "three attempts: the first and two retries");
        assertEquals(null, dead.getValue("next_attempt_at"));
        clock.advance(Duration.ofDays(2));
        assertEquals(0, drain(runner, capped), "a dead delivery is never claimed");

        answers.put("d1", new AtomicInteger(200));
        assertEquals(1, resend("e1"));
        assertEquals(0, resend("e1"), "a pending delivery is not restarted twice");
        assertEquals(1, drain(runner, capped));
        assertEquals("delivered", delivery("e1").getString("status"));
        assertEquals(List.of(1, 2, 3, 4), attempts("e1").stream().map(r -> r.getInteger("attempt_number")).toList());
        assertEquals(4, received.get("d1").size());
    }

    @Test
    void consecutiveFailuresPauseADestinationWhoseDeliveriesWaitAndGoOutInOrderOnceReactivated() {
        DeliveryRunner runner = runner();
        destination("d1");
        answers.put("d1", new AtomicInteger(503));
        for (int i = 0; i < PAUSE_AFTER; i++) {
            event("e" + i, "d1");
            drain(runner, inOrder);
        }
        assertEquals(false, address("d1").getBoolean("open"));
        event("held", "d1");
        clock.advance(Duration.ofHours(1));
        assertEquals(0, drain(runner, inOrder), "a paused destination is offered nothing");

        answers.put("d1", new AtomicInteger(200));
        rows("UPDATE " + SCHEMA + ".destinations SET paused_at = NULL, consecutive_failures = 0 WHERE id = 'd1'");
        received.clear();
        assertEquals(PAUSE_AFTER + 1, drain(runner, inOrder));
        assertEquals(List.of("e0", "e1", "e2", "e3", "held"), received.get("d1"));
    }

    @Test
    void aSuccessEndsTheRunOfFailuresSoFailuresApartNeverPause() {
        DeliveryRunner runner = runner();
        destination("d1");
        answers.put("d1", new AtomicInteger(503));
        event("e0", "d1");
        drain(runner, inOrder);
        clock.advance(Duration.ofMinutes(1));
        drain(runner, inOrder);
        clock.advance(Duration.ofMinutes(5));
        drain(runner, inOrder);
        assertEquals("dead", delivery("e0").getString("status"));
        assertEquals(3, failuresInARow("d1"));

        answers.put("d1", new AtomicInteger(200));
        event("e1", "d1");
        assertEquals(1, drain(runner, inOrder));
        assertEquals(0, failuresInARow("d1"), "a success ends the run");
        event("e2", "d1");
        assertEquals(1, drain(runner, inOrder));
        assertEquals(0, failuresInARow("d1"));

        answers.put("d1", new AtomicInteger(503));
        event("e3", "d1");
        drain(runner, inOrder);
        assertEquals(1, failuresInARow("d1"));
        assertEquals(true, address("d1").getBoolean("open"), "4 failures, not in a row: not paused");
    }

    private int failuresInARow(String destination) {
        return address(destination).getInteger("consecutive_failures");
    }

    /** The destination as the engine reads and writes it. */
    private Row address(String destination) {
        return rows("SELECT * FROM " + SCHEMA + ".destinations WHERE id = '" + destination + "'").get(0);
    }

    @Test
    void twoRunnersOnOneOutboxSendEachDeliveryOnce() throws Exception {
        DeliveryRunner a = runner();
        DeliveryRunner b = runner();
        for (int d = 0; d < 4; d++) {
            destination("d" + d);
            for (int i = 0; i < 25; i++) {
                event("d" + d + "-" + i, "d" + d);
            }
        }
        var first = a.drain(capped).subscribeAsCompletionStage();
        var second = b.drain(capped).subscribeAsCompletionStage();
        int sent = first.get() + second.get();
        assertEquals(100, sent);
        List<String> all = received.values().stream().flatMap(List::stream).toList();
        assertEquals(100, all.size());
        assertEquals(100, all.stream().distinct().count(), "no event was sent twice");
        assertEquals(100, rows("SELECT count(*) AS n FROM " + SCHEMA + ".outbox_attempts").get(0).getLong("n").intValue());
    }

    @Test
    void aStalledReceiverHoldsItsOwnSlotOnlyAndEndsAsAFailedAttempt() {
        DeliveryRunner runner = runner();
        destination("stalled");
        destination("fine");
        answers.put("stalled", new AtomicInteger(0));
        event("slow", "stalled");
        for (int i = 0; i < 6; i++) {
            event("fast-" + i, "fine");
        }
        runner.wake(capped);
        await("the other destination's deliveries", () -> received.getOrDefault("fine", List.of()).size() == 6
                && attempts("fast-5").size() == 1);
        assertEquals("pending", delivery("slow").getString("status"), "still in flight, or failed and rescheduled");
        await("the stalled send to end", () -> runner.idle(capped));
        List<Row> a = attempts("slow");
        assertEquals(1, a.size());
        assertTrue(!a.get(0).getBoolean("success"), "past the send timeout: a failure");
        assertEquals("pending", delivery("slow").getString("status"), "retried on the schedule");
    }

    @Test
    void aClaimWhoseLeaseRanOutIsClaimedAgainAndTheLateRecordIsIgnored() {
        DeliveryRunner runner = runner();
        destination("d1");
        event("e1", "d1");
        DeliveryStore late = runner.store;
        List<ClaimedDelivery> claimed = late.claimDue(capped, 8).await().atMost(Duration.ofSeconds(10));
        assertEquals(1, claimed.size());
        assertEquals(0, drain(runner, capped), "leased: nobody else claims it");
        clock.advance(settings.lease().plusSeconds(1)); // the claimer died with it
        assertEquals(1, drain(runner, capped));
        assertEquals("delivered", delivery("e1").getString("status"));
        // the first claimer comes back: its lease is not the row's any more, nothing is written
        late.record(capped, List.of(new DeliveryStore.Outcome(claimed.get(0), SendResult.failed("late", 5))))
                .await().atMost(Duration.ofSeconds(10));
        assertEquals("delivered", delivery("e1").getString("status"));
        assertEquals(1, attempts("e1").size());
    }

    @Test
    void recoveringAWindowRestartsItsDeadDeliveriesOnceAndTheSameWindowAgainResendsNothing() {
        DeliveryRunner runner = runner();
        destination("d1");
        answers.put("d1", new AtomicInteger(500));
        java.time.Instant since = clock.instant().minusSeconds(1);
        event("e1", "d1");
        event("e2", "d1");
        drain(runner, capped);
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        drain(runner, capped);
        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        drain(runner, capped);
        assertEquals("dead", delivery("e2").getString("status"));
        java.time.Instant until = clock.instant();
        event("outside", "d1"); // created at the window's end: not in it
        answers.put("d1", new AtomicInteger(200));

        DeliveryRestarts.Recovered first = restarts().recover(capped, "owner", "test", "d1", since, until)
                .await().atMost(Duration.ofSeconds(10));
        assertEquals(2, first.resent());
        assertTrue(!first.replayed());
        DeliveryRestarts.Recovered again = restarts().recover(capped, "owner", "test", "d1", since, until)
                .await().atMost(Duration.ofSeconds(10));
        assertEquals(2, again.resent());
        assertTrue(again.replayed(), "the same window answers what the first request did");
        assertEquals(3, drain(runner, capped));
        assertEquals("delivered", delivery("e1").getString("status"));
        assertEquals(0, delivery("e1").getInteger("cycle_failures"));
        assertEquals(4, delivery("e1").getInteger("attempts"), "three failed attempts and the recovered one");
        assertEquals(0, restarts().recover(capped, "another owner", "test", "d1", since, until.plusSeconds(1))
                .await().atMost(Duration.ofSeconds(10)).resent(), "another owner's window restarts nothing");
    }
}
