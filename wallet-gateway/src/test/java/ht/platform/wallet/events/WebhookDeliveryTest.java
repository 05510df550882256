package ht.platform.wallet.events;

import ht.platform.support.testing.EventCatalogContract;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Deliveries;
import ht.platform.support.testing.TestDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.VerificationResult;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class WebhookDeliveryTest {

    static final Duration BOUND = Duration.ofSeconds(15);
    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryPolicy store;

    @Inject
    ht.platform.support.outbox.DeliveryStore deliveries;

    String test;
    final List<Receiver> receivers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        test = TestApi.key(TestApi.project("Webhook shop"), "test");
    }

    @AfterEach
    void tearDown() {
        receivers.forEach(Receiver::close);
        receivers.clear();
    }

    Receiver receiver() throws Exception {
        Receiver r = new Receiver();
        receivers.add(r);
        return r;
    }

    /** Registers an address; returns {id, secret}. */
    String[] register(String url, String... events) {
        JsonPath p = as(test).body(Map.of("url", url, "events", List.of(events))).post("/api/v1/webhooks")
                .then().statusCode(201).extract().jsonPath();
        return new String[] {p.getString("id"), p.getString("secret")};
    }

    JsonPath deliveries(String webhook) {
        return as(test).get("/api/v1/webhooks/" + webhook + "/deliveries?limit=100").then().statusCode(200).extract().jsonPath();
    }

    JsonPath webhook(String id) {
        return as(test).get("/api/v1/webhooks/" + id).then().statusCode(200).extract().jsonPath();
    }

    int attempts(String webhook) {
        return deliveries(webhook).getList("data.attempts.flatten()").size();
    }

    void drain() {
        Deliveries.drainUntilIdle(runner, store);
    }

    VerificationResult verify(Receiver.Received r, String... secrets) {
        return new WebhookVerifier(SignatureScheme.GATEWAY, List.of(secrets), Duration.ofMinutes(5), clock)
                .verify(r::header, r.body());
    }

    static JsonNode body(Receiver.Received r) {
        try {
            return JSON.readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void deliveryHasTheSourceHeadersEnvelopeAndAValidSignature() throws Exception {
        Receiver rx = receiver();
        String[] wh = register(rx.url(), "payment.succeeded");
        String pay = TestApi.payment(test, 1000);
        as(test).post("/api/v1/test_helpers/payments/" + pay + "/succeed").then().statusCode(200);
        Receiver.await("payment.succeeded delivery", BOUND, () -> rx.received.size() >= 1);
        drain();
        assertEquals(1, rx.received.size(), "payment.created is not subscribed, so only one delivery");
        Receiver.Received r = rx.received.get(0);
        assertEquals("/hooks", r.path());
        assertTrue(r.header("Content-Type").startsWith("application/json"));
        assertEquals("WalletGateway-Webhooks/1.0", r.header("User-Agent"));
        assertEquals("payment.succeeded", r.header("X-Gateway-Event"));
        JsonNode body = body(r);
        assertEquals(List.of("id", "type", "created_at", "data"), iterable(body.fieldNames()));
        assertTrue(body.get("id").asText().matches("evt_[0-9a-f]{32}"));
        assertEquals(body.get("id").asText(), r.header("X-Gateway-Event-ID"));
        assertEquals("payment.succeeded", body.get("type").asText());
        assertTrue(body.get("created_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        JsonNode object = body.get("data").get("object");
        assertEquals(pay, object.get("id").asText());
        assertEquals("payment", object.get("object").asText());
        assertEquals("succeeded", object.get("status").asText());
        assertEquals(1000, object.get("amount").asLong());
        assertEquals(25, object.get("fee").asLong());
        assertEquals(1025, object.get("total").asLong());
        assertEquals("HTG", object.get("currency").asText());
        assertNotNull(object.get("reference").asText());
        assertFalse(object.get("paid_at").isNull());
        long ts = Long.parseLong(r.header("X-Gateway-Timestamp"));
        assertTrue(Math.abs(ts - clock.instant().getEpochSecond()) < 60);
        assertTrue(r.header("X-Gateway-Signature").matches("v1=[0-9a-f]{64}"));
        assertTrue(verify(r, wh[1]).valid(), "signature verifies with the shared library");
        assertFalse(verify(r, "whsec_wrong").valid());
        // the delivery is recorded with its attempt
        Receiver.await("attempt recorded", BOUND, () -> "delivered".equals(deliveries(wh[0]).getString("data[0].status")));
        JsonPath d = deliveries(wh[0]);
        assertEquals(body.get("id").asText(), d.getString("data[0].event_id"));
        assertEquals("payment.succeeded", d.getString("data[0].event_type"));
        assertEquals(200, d.getInt("data[0].attempts[0].status_code"));
        assertTrue(d.getBoolean("data[0].attempts[0].success"));
        assertTrue(d.getString("data[0].attempts[0].response_excerpt").contains("received"));
    }

    @Test
    void everyStatusChangeWritesItsEvent() throws Exception {
        Receiver rx = receiver();
        register(rx.url(), "payment.created", "payment.pending", "payment.succeeded", "payment.failed", "payment.expired",
                "withdrawal.requested", "withdrawal.processing", "withdrawal.completed", "withdrawal.rejected",
                "withdrawal.cancelled", "withdrawal.failed");
        var created = as(test).body("{\"amount\":10000,\"currency\":\"HTG\",\"reference\":\"all\"}").post("/api/v1/payments")
                .then().statusCode(201).extract();
        given().get(URI.create(created.<String>path("wallet_url")).getPath()).then().statusCode(200);
        as(test).post("/api/v1/test_helpers/payments/" + created.path("id") + "/succeed").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/payments/" + TestApi.payment(test, 5) + "/fail").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/payments/" + TestApi.payment(test, 5) + "/expire").then().statusCode(200);
        String body = "{\"amount\":100,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"50937001234\"},\"reference\":\"w\"}";
        List<String> wds = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            wds.add(as(test).header("Idempotency-Key", TestApi.newKey()).body(body).post("/api/v1/withdrawals")
                    .then().statusCode(201).extract().path("id"));
        }
        as(test).header("Idempotency-Key", TestApi.newKey()).body(body.replace("100", "100000")).post("/api/v1/withdrawals")
                .then().statusCode(409); // refused: no event
        as(test).post("/api/v1/test_helpers/withdrawals/" + wds.get(0) + "/process").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/withdrawals/" + wds.get(0) + "/complete").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/withdrawals/" + wds.get(1) + "/reject").then().statusCode(200);
        as(test).post("/api/v1/withdrawals/" + wds.get(2) + "/cancel").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/withdrawals/" + wds.get(3) + "/process").then().statusCode(200);
        as(test).post("/api/v1/test_helpers/withdrawals/" + wds.get(3) + "/fail").then().statusCode(200);
        Receiver.await("17 events", BOUND, () -> rx.received.size() >= 17);
        drain();
        assertEquals(17, rx.received.size());
        Set<String> types = new TreeSet<>();
        rx.received.forEach(r -> types.add(r.header("X-Gateway-Event")));
        assertEquals(11, types.size(), types.toString());
        assertEquals(4, rx.ofType("withdrawal.requested").size());
        JsonNode completed = body(rx.ofType("withdrawal.completed").get(0)).get("data").get("object");
        assertEquals("withdrawal", completed.get("object").asText());
        assertEquals("completed", completed.get("status").asText());
        assertFalse(completed.get("completed_at").isNull());
        assertEquals("*******1234", completed.get("destination").get("msisdn").asText());
        assertEquals("pending", body(rx.ofType("payment.pending").get(0)).get("data").get("object").get("status").asText());
        // payment.created carries the payment exactly as the creation answered it, byte for byte
        String answer = created.asString();
        String createdEvent = new String(rx.ofType("payment.created").get(0).body(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(createdEvent.endsWith(",\"data\":{\"object\":" + answer + "}}"), createdEvent + " / " + answer);
        // every event id is distinct
        assertEquals(17, rx.received.stream().map(r -> r.header("X-Gateway-Event-ID")).distinct().count());
        // each body matches the schema the service publishes for its type
        for (Receiver.Received r : rx.received) {
            EventCatalogContract.assertMatchesSchema(r.body());
        }
        List<String> all = new ArrayList<>(EventTypes.SUBSCRIBABLE);
        all.add(EventTypes.PING);
        EventCatalogContract.assertDescribed(test, all,
                List.of("X-Gateway-Timestamp", "X-Gateway-Event-ID", "X-Gateway-Signature", "X-Gateway-Event"));
    }

    @Test
    void retriesFollowTheExactScheduleThenAbandonAndResendUsesTheSameEvent() throws Exception {
        Receiver rx = receiver();
        rx.status.set(500);
        String[] wh = register(rx.url(), "payment.created");
        TestApi.payment(test, 100);
        Receiver.await("first attempt", BOUND, () -> attempts(wh[0]) == 1);
        List<Duration> schedule = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
                Duration.ofHours(1), Duration.ofHours(6), Duration.ofHours(24));
        for (int i = 0; i < schedule.size(); i++) {
            JsonPath d = deliveries(wh[0]);
            assertEquals("pending", d.getString("data[0].status"));
            Instant last = Instant.parse(d.getString("data[0].attempts[" + i + "].attempted_at"));
            Instant next = Instant.parse(d.getString("data[0].next_attempt_at"));
            assertEquals(schedule.get(i), Duration.between(last, next), "delay after attempt " + (i + 1));
            assertEquals(500, d.getInt("data[0].attempts[" + i + "].status_code"));
            clock.advance(schedule.get(i).minusSeconds(30));
            drain();
            assertEquals(i + 1, rx.received.size(), "not yet due before the delay");
            clock.advance(Duration.ofSeconds(31));
            drain();
            int expected = i + 2;
            Receiver.await("attempt " + expected, BOUND, () -> attempts(wh[0]) == expected);
            assertEquals(expected, rx.received.size());
        }
        JsonPath d = deliveries(wh[0]);
        assertEquals("abandoned", d.getString("data[0].status"));
        assertEquals(7, d.getInt("data[0].attempt_count"));
        assertNull(d.getString("data[0].next_attempt_at"));
        clock.advance(Duration.ofDays(3));
        drain();
        assertEquals(7, rx.received.size(), "an abandoned delivery is not retried");
        assertEquals(1, rx.received.stream().map(r -> r.header("X-Gateway-Event-ID")).distinct().count(), "same event id on every attempt");
        assertEquals(1, rx.received.stream().map(r -> new String(r.body())).distinct().count(), "same raw body on every attempt");
        assertEquals("active", webhook(wh[0]).getString("status"));
        assertEquals(7, webhook(wh[0]).getInt("consecutive_failures"));

        rx.status.set(200);
        String deliveryId = d.getString("data[0].id");
        as(test).post("/api/v1/webhook_deliveries/" + deliveryId + "/resend").then().statusCode(200)
                .body("status", equalTo("pending")).body("event_id", equalTo(d.getString("data[0].event_id")));
        Receiver.await("resent delivery", BOUND, () -> rx.received.size() == 8);
        Receiver.await("delivered", BOUND, () -> "delivered".equals(deliveries(wh[0]).getString("data[0].status")));
        assertEquals(rx.received.get(0).header("X-Gateway-Event-ID"), rx.received.get(7).header("X-Gateway-Event-ID"));
        assertTrue(verify(rx.received.get(7), wh[1]).valid());
        assertEquals(8, deliveries(wh[0]).getList("data[0].attempts").size());
        assertEquals(0, webhook(wh[0]).getInt("consecutive_failures"), "a success resets the count");
        // a delivered delivery may be resent too; a pending one may not
        as(test).post("/api/v1/webhook_deliveries/" + deliveryId + "/resend").then().statusCode(200);
        as(test).post("/api/v1/webhook_deliveries/whd_unknown/resend").then().statusCode(404);
        String otherKey = TestApi.key(TestApi.project("Stranger"), "test");
        as(otherKey).post("/api/v1/webhook_deliveries/" + deliveryId + "/resend").then().statusCode(404);
    }

    @Test
    void twentyConsecutiveFailuresPauseAndReactivationDeliversTheHeldBacklogInOrder() throws Exception {
        Receiver rx = receiver();
        rx.status.set(503);
        String[] wh = register(rx.url(), "payment.created");
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 19; i++) {
            payments.add(TestApi.payment(test, 100 + i));
        }
        Receiver.await("19 failed attempts", BOUND, () -> webhook(wh[0]).getInt("consecutive_failures") == 19);
        assertEquals("active", webhook(wh[0]).getString("status"), "19 failures do not pause");
        payments.add(TestApi.payment(test, 500));
        Receiver.await("20th failure", BOUND, () -> webhook(wh[0]).getInt("consecutive_failures") == 20);
        JsonPath w = webhook(wh[0]);
        assertEquals("paused", w.getString("status"), "paused at exactly 20");
        assertNotNull(w.getString("paused_at"));
        assertEquals(20, rx.received.size());
        // held, not dropped: new events are queued but not sent; due retries are not sent either
        payments.add(TestApi.payment(test, 600));
        payments.add(TestApi.payment(test, 700));
        clock.advance(Duration.ofMinutes(2));
        drain();
        assertEquals(20, rx.received.size(), "nothing goes to a paused address");
        assertEquals(22, deliveries(wh[0]).getList("data").size());
        as(test).post("/api/v1/webhooks/" + wh[0] + "/test").then().statusCode(202);

        rx.status.set(200);
        rx.received.clear();
        as(test).post("/api/v1/webhooks/" + wh[0] + "/reactivate").then().statusCode(200)
                .body("status", equalTo("active")).body("paused_at", equalTo(null));
        Receiver.await("backlog delivered", BOUND, () -> rx.received.size() >= 23);
        drain();
        assertEquals(23, rx.received.size());
        List<String> order = rx.received.stream().filter(r -> "payment.created".equals(r.header("X-Gateway-Event")))
                .map(r -> body(r).get("data").get("object").get("id").asText()).toList();
        assertEquals(payments, order, "held deliveries go out in their original order");
        assertEquals("webhook.ping", rx.received.get(22).header("X-Gateway-Event"));
        Receiver.await("count reset", BOUND, () -> webhook(wh[0]).getInt("consecutive_failures") == 0);
        as(test).post("/api/v1/webhooks/" + wh[0] + "/reactivate").then().statusCode(409)
                .body("error.code", equalTo("WEBHOOK_NOT_PAUSED"));
    }

    @Test
    void rotationSignsWithBothSecretsFor24Hours() throws Exception {
        Receiver rx = receiver();
        String[] wh = register(rx.url(), "payment.created");
        String oldSecret = wh[1];
        Instant before = clock.instant();
        JsonPath rotated = as(test).post("/api/v1/webhooks/" + wh[0] + "/rotate_secret").then().statusCode(200)
                .extract().jsonPath();
        String newSecret = rotated.getString("secret");
        assertTrue(newSecret.startsWith("whsec_"));
        assertFalse(newSecret.equals(oldSecret));
        Duration overlap = Duration.between(before, Instant.parse(rotated.getString("previous_secret_expires_at")));
        assertTrue(overlap.compareTo(Duration.ofHours(24)) >= 0 && overlap.compareTo(Duration.ofHours(24).plusMinutes(1)) < 0, overlap.toString());
        TestApi.payment(test, 10);
        Receiver.await("delivery during overlap", BOUND, () -> rx.received.size() == 1);
        Receiver.Received during = rx.received.get(0);
        assertTrue(during.header("X-Gateway-Signature").matches("v1=[0-9a-f]{64},v1=[0-9a-f]{64}"));
        assertTrue(verify(during, newSecret).valid());
        assertTrue(verify(during, oldSecret).valid());
        assertFalse(webhook(wh[0]).prettify().contains("whsec_"), "the secret is never listed");

        clock.advance(Duration.ofHours(24).plusMinutes(1));
        TestApi.payment(test, 11);
        Receiver.await("delivery after overlap", BOUND, () -> rx.received.size() == 2);
        Receiver.Received after = rx.received.get(1);
        assertTrue(after.header("X-Gateway-Signature").matches("v1=[0-9a-f]{64}"));
        assertTrue(verify(after, newSecret).valid());
        assertFalse(verify(after, oldSecret).valid());
    }

    @Test
    void pingGoesToThatAddressOnly() throws Exception {
        Receiver a = receiver();
        Receiver b = receiver();
        String[] wa = register(a.url(), "payment.created");
        register(b.url(), "payment.created");
        String eventId = as(test).post("/api/v1/webhooks/" + wa[0] + "/test").then().statusCode(202)
                .body("event_type", equalTo("webhook.ping")).extract().path("event_id");
        Receiver.await("ping", BOUND, () -> a.received.size() == 1);
        drain();
        assertEquals(0, b.received.size());
        Receiver.Received r = a.received.get(0);
        assertEquals("webhook.ping", r.header("X-Gateway-Event"));
        assertEquals(eventId, r.header("X-Gateway-Event-ID"));
        JsonNode object = body(r).get("data").get("object");
        assertEquals("test", object.get("object").asText());
        assertEquals(wa[0], object.get("webhook_id").asText());
        assertTrue(verify(r, wa[1]).valid());
        as(test).post("/api/v1/webhooks/we_missing/test").then().statusCode(404);
        String readOnly = TestApi.key(TestApi.project("RO"), "test", "webhooks:read");
        as(readOnly).post("/api/v1/webhooks/" + wa[0] + "/test").then().statusCode(403);
    }

    @Test
    void redirectsAreFailuresAndNeverFollowed() throws Exception {
        Receiver rx = receiver();
        rx.status.set(302);
        String[] wh = register(rx.url(), "payment.created");
        TestApi.payment(test, 10);
        Receiver.await("attempt", BOUND, () -> attempts(wh[0]) == 1);
        JsonPath d = deliveries(wh[0]);
        assertFalse(d.getBoolean("data[0].attempts[0].success"));
        assertEquals(302, d.getInt("data[0].attempts[0].status_code"));
        assertTrue(d.getString("data[0].attempts[0].error").contains("redirect"));
        assertEquals("pending", d.getString("data[0].status"));
        assertEquals(1, rx.received.size());
        assertTrue(rx.received.stream().noneMatch(r -> r.path().endsWith("/target")), "the redirect is not followed");
        assertEquals(1, webhook(wh[0]).getInt("consecutive_failures"));
    }

    @Test
    void aReceiverSlowerThanTenSecondsIsAFailure() throws Exception {
        Receiver rx = receiver();
        rx.delayMillis.set(12_000);
        String[] wh = register(rx.url(), "payment.created");
        TestApi.payment(test, 10);
        Receiver.await("timed-out attempt", Duration.ofSeconds(25), () -> attempts(wh[0]) == 1);
        JsonPath d = deliveries(wh[0]);
        assertFalse(d.getBoolean("data[0].attempts[0].success"));
        assertNull(d.get("data[0].attempts[0].status_code"));
        assertTrue(d.getString("data[0].attempts[0].error").contains("timeout"), d.getString("data[0].attempts[0].error"));
        long latency = d.getLong("data[0].attempts[0].latency_ms");
        assertTrue(latency >= 9_900 && latency < 12_000, "latency " + latency);
        assertEquals("pending", d.getString("data[0].status"));
    }

    @Test
    void deletingAnAddressDropsItsPendingDeliveries() throws Exception {
        Receiver rx = receiver();
        rx.status.set(500);
        String[] wh = register(rx.url(), "payment.created");
        TestApi.payment(test, 10);
        Receiver.await("attempt", BOUND, () -> attempts(wh[0]) == 1);
        assertEquals(1, countDeliveries(wh[0]));
        as(test).delete("/api/v1/webhooks/" + wh[0]).then().statusCode(204);
        assertEquals(0, countDeliveries(wh[0]));
        clock.advance(Duration.ofMinutes(2));
        drain();
        assertEquals(1, rx.received.size());
        as(test).get("/api/v1/webhooks/" + wh[0] + "/deliveries").then().statusCode(404);
    }

    @Test
    void deliveryListsPaginateNewestFirst() throws Exception {
        Receiver rx = receiver();
        String[] wh = register(rx.url(), "payment.created");
        for (int i = 0; i < 3; i++) {
            TestApi.payment(test, 10 + i);
        }
        Receiver.await("3 deliveries", BOUND, () -> rx.received.size() == 3);
        JsonPath first = as(test).get("/api/v1/webhooks/" + wh[0] + "/deliveries?limit=2").then().statusCode(200).extract().jsonPath();
        assertTrue(first.getBoolean("has_more"));
        assertEquals("list", first.getString("object"));
        String cursor = first.getString("data[1].id");
        JsonPath rest = as(test).get("/api/v1/webhooks/" + wh[0] + "/deliveries?limit=2&starting_after=" + cursor)
                .then().statusCode(200).extract().jsonPath();
        assertFalse(rest.getBoolean("has_more"));
        assertEquals(1, rest.getList("data").size());
        List<String> received = rx.received.stream().map(r -> r.header("X-Gateway-Event-ID")).toList();
        assertEquals(List.of(received.get(2), received.get(1), received.get(0)),
                List.of(first.getString("data[0].event_id"), first.getString("data[1].event_id"), rest.getString("data[0].event_id")));
        as(test).get("/api/v1/webhooks/" + wh[0] + "/deliveries?limit=0").then().statusCode(400);
        as(test).get("/api/v1/webhooks/" + wh[0] + "/deliveries?starting_after=whd_nope").then().statusCode(400);
        as(test).get("/api/v1/webhooks/we_nope/deliveries").then().statusCode(404);
        String writeOnly = TestApi.key(TestApi.project("WO"), "test", "webhooks:write");
        as(writeOnly).get("/api/v1/webhooks/" + wh[0] + "/deliveries").then().statusCode(403);
    }

    @Test
    void concurrentClaimsNeverHandOutTheSameDeliveryTwice() throws Exception {
        Receiver rx = receiver();
        rx.status.set(500);
        List<String> hooks = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String key = TestApi.key(TestApi.project("Replica " + i), "test");
            keys.add(key);
            hooks.add(as(key).body(Map.of("url", rx.url(), "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(201).extract().path("id"));
            TestApi.payment(key, 10);
        }
        Receiver.await("8 first attempts", BOUND, () -> rx.received.size() == 8);
        for (int i = 0; i < 8; i++) {
            String key = keys.get(i);
            String hook = hooks.get(i);
            Receiver.await("attempt recorded", BOUND, () -> as(key).get("/api/v1/webhooks/" + hook + "/deliveries").then()
                    .extract().jsonPath().getList("data[0].attempts").size() == 1);
        }
        // every retry is due at once; six "replicas" claim concurrently
        clock.advance(Duration.ofMinutes(2));
        var pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            List<java.util.concurrent.Callable<List<String>>> claims = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                claims.add(() -> claim(8));
            }
            List<String> claimed = new ArrayList<>();
            for (var f : pool.invokeAll(claims)) {
                claimed.addAll(f.get());
            }
            assertEquals(claimed.size(), claimed.stream().distinct().count(), "a delivery was claimed twice: " + claimed);
            // the lease holds them: another claim does not return any of them
            List<String> again = claim(100);
            assertTrue(again.stream().noneMatch(claimed::contains), "leased deliveries were handed out again");
        } finally {
            pool.shutdownNow();
        }
    }

    /** One claim as a replica would make it, on its own Vert.x context. */
    List<String> claim(int limit) {
        try {
            return io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(() -> deliveries.claimDue(store, limit))
                    .stream().map(ht.platform.support.outbox.ClaimedDelivery::id).toList();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    static int countDeliveries(String endpoint) throws Exception {
        try (Connection c = TestDatabase.connect();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM wallet.outbox_deliveries WHERE destination_id = ?")) {
            s.setString(1, endpoint);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
