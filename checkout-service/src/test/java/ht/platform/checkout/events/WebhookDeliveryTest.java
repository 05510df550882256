package ht.platform.checkout.events;

import ht.platform.support.testing.EventCatalogContract;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Deliveries;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.net.Webhook;
import ht.platform.checkout.TestApi;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.SendResult;
import ht.platform.support.outbox.WebhookTransport;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.*;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class WebhookDeliveryTest {

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    CheckoutDeliveryPolicy store;

    @Inject
    WebhookTransport transport;

    @Inject
    ObjectMapper mapper;

    /** A fresh receiver for each test (PlatformHarness). */
    Receiver receiver;
    String key;

    @BeforeEach
    void setUp() {
        key = TestApi.key(TestApi.application("Hooks " + System.nanoTime()), "test", null);
    }

    static void await(BooleanSupplier condition, String what) {
        Waiting.until(what, condition);
    }

    @Test
    void newUserPaysAndReceivesVerifiableSignedEvents() throws Exception {
        var created = as(key).body(Map.of("url", receiver.url("/hooks"))).post("/api/v1/webhook_endpoints").then().statusCode(201)
                .body("id", startsWith("pay_we_")).body("secret", startsWith("whsec_")).body("status", equalTo("enabled"))
                .body("events", hasItem("refund.succeeded")).extract();
        String secret = created.path("secret");
        as(key).get("/api/v1/webhook_endpoints").then().statusCode(200).body("data[0].secret", nullValue())
                .body("data.size()", equalTo(1));

        String id = TestApi.createIntent(key, "250.75");
        TestApi.simulate(key, id, "succeeded").statusCode(200).body("status", equalTo("succeeded"));
        await(() -> !receiver.ofType("payment_intent.succeeded").isEmpty(), "payment_intent.succeeded");

        Receiver.Received r = receiver.ofType("payment_intent.succeeded").get(0);
        for (Receiver.Received each : receiver.received) {
            EventCatalogContract.assertMatchesSchema(each.body());
        }
        EventCatalogContract.assertDescribed(key, EventTypes.ALL,
                List.of("Checkout-Timestamp", "Checkout-Signature", "Checkout-Event-Id", "Checkout-Event-Type"));
        String ts = r.header("Checkout-Timestamp");
        String sig = r.header("Checkout-Signature");
        assertTrue(sig.matches("[0-9a-f]{64}"));
        assertEquals("application/json", r.header("Content-Type"));
        String body = new String(r.body(), StandardCharsets.UTF_8);
        // Stripe's own verifier accepts our signature given t=<timestamp>,v1=<signature>
        assertDoesNotThrow(() -> Webhook.Signature.verifyHeader(body, "t=" + ts + ",v1=" + sig, secret, 300));
        assertThrows(Exception.class, () -> Webhook.Signature.verifyHeader(body + " ", "t=" + ts + ",v1=" + sig, secret, 300));
        assertTrue(new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret), Duration.ofMinutes(5), Clock.systemUTC())
                .verify(r::header, r.body()).valid());

        @SuppressWarnings("unchecked") Map<String, Object> event = mapper.readValue(body, Map.class);
        assertEquals(r.header("Checkout-Event-Id"), event.get("id"));
        assertTrue(((String) event.get("id")).startsWith("evt_"));
        assertEquals("payment_intent.succeeded", event.get("type"));
        assertEquals("test", event.get("mode"));
        @SuppressWarnings("unchecked") Map<String, Object> data = (Map<String, Object>) event.get("data");
        assertEquals(id, data.get("id"));
        assertEquals("payment_intent", data.get("object"));
        assertEquals("succeeded", data.get("status"));
        assertEquals("250.750000", data.get("amount"));
        assertEquals("HTG", data.get("currency"));
        assertEquals("order-1", data.get("external_reference"));
        assertEquals("test_card", data.get("payment_method"));

        as(key).header("Idempotency-Key", "r-" + System.nanoTime()).body(Map.of("payment_intent", id, "amount", "50"))
                .post("/api/v1/refunds").then().statusCode(201);
        await(() -> !receiver.ofType("refund.succeeded").isEmpty(), "refund.succeeded");
        Receiver.Received rr = receiver.ofType("refund.succeeded").get(0);
        @SuppressWarnings("unchecked") Map<String, Object> refundData = (Map<String, Object>) mapper.readValue(rr.body(), Map.class).get("data");
        assertEquals("refund", refundData.get("object"));
        assertEquals(id, refundData.get("payment_intent"));
        assertEquals("50.000000", refundData.get("amount"));
        assertDoesNotThrow(() -> Webhook.Signature.verifyHeader(new String(rr.body(), StandardCharsets.UTF_8),
                "t=" + rr.header("Checkout-Timestamp") + ",v1=" + rr.header("Checkout-Signature"), secret, 300));
        assertFalse(receiver.ofType("payment_intent.created").isEmpty());
        assertFalse(receiver.ofType("payment_intent.processing").isEmpty());
        assertFalse(receiver.ofType("refund.created").isEmpty());

        String eventId = (String) event.get("id");
        await(() -> "succeeded".equals(as(key).get("/api/v1/events/" + eventId).then().extract().path("deliveries[0].status")), "recorded success");
        as(key).get("/api/v1/events/" + eventId).then().statusCode(200).body("type", equalTo("payment_intent.succeeded"))
                .body("deliveries[0].attempts[0].status_code", equalTo(200))
                .body("deliveries[0].attempts[0].success", equalTo(true));
        as(TestApi.key(TestApi.application("Other"), "test", null)).get("/api/v1/events/" + eventId).then().statusCode(404);
    }

    @Test
    void retriesOnTheScheduleThenDeadLetterThenResend() throws Exception {
        receiver.status.set(500);
        as(key).body(Map.of("url", receiver.url("/failing"), "events", List.of("payment_intent.created")))
                .post("/api/v1/webhook_endpoints").then().statusCode(201);
        TestApi.createIntent(key, "5");
        await(() -> receiver.received.size() == 1, "first attempt");
        String eventId = as(key).queryParam("type", "payment_intent.created").get("/api/v1/events").then().statusCode(200)
                .extract().path("data[0].id");
        await(() -> Integer.valueOf(1).equals(as(key).get("/api/v1/events/" + eventId).then().extract().path("deliveries[0].failed_attempts")),
                "first failure recorded");

        List<Duration> schedule = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24), Duration.ofHours(24));
        int attempts = 1;
        for (Duration delay : schedule) {
            clock.advance(delay.minusSeconds(2));
            Deliveries.drainUntilIdle(runner, store);
            assertEquals(attempts, receiver.received.size(), "no attempt before the delay " + delay);
            clock.advance(Duration.ofSeconds(2));
            Deliveries.drainUntilIdle(runner, store);
            attempts++;
            int expected = attempts;
            await(() -> receiver.received.size() == expected, "attempt " + expected);
            // the clock moves only once the attempt is recorded: moving it while the background loop still holds the
            // send would end that lease on the test clock and let the next drain send the same attempt again
            await(() -> Integer.valueOf(expected).equals(as(key).get("/api/v1/events/" + eventId).then().extract()
                    .path("deliveries[0].failed_attempts")), "attempt " + expected + " recorded");
        }
        assertEquals(9, receiver.received.size());
        as(key).get("/api/v1/events/" + eventId).then().statusCode(200)
                .body("deliveries[0].status", equalTo("dead"))
                .body("deliveries[0].attempts.size()", equalTo(9))
                .body("deliveries[0].attempts[8].status_code", equalTo(500))
                .body("deliveries[0].attempts[8].response_excerpt", containsString("received"));
        clock.advance(Duration.ofDays(7));
        Deliveries.drainUntilIdle(runner, store);
        assertEquals(9, receiver.received.size(), "a dead delivery is not retried");
        // every attempt carried the same event id
        assertEquals(1, receiver.received.stream().map(r -> r.header("Checkout-Event-Id")).distinct().count());

        receiver.status.set(204);
        as(key).post("/api/v1/events/" + eventId + "/resend").then().statusCode(202).body("id", equalTo(eventId));
        await(() -> receiver.received.size() == 10, "resent delivery");
        await(() -> "succeeded".equals(as(key).get("/api/v1/events/" + eventId).then().extract().path("deliveries[0].status")), "resend recorded");
        assertEquals(eventId, receiver.received.get(9).header("Checkout-Event-Id"));
    }

    @Test
    void privateTargetsAreRefusedAtSendTimeWhenNotAllowed() {
        SendResult loopback = transport.send(new OutgoingUrlPolicy(false), "https://127.0.0.1:" + receiver.port() + "/x",
                Map.of(), "{}".getBytes()).await().atMost(Duration.ofSeconds(15));
        assertFalse(loopback.success());
        assertTrue(loopback.error().contains("NOT_ALLOWED"), loopback.error());
        SendResult metadata = transport.send(new OutgoingUrlPolicy(false), "https://169.254.169.254/latest/meta-data",
                Map.of(), "{}".getBytes()).await().atMost(Duration.ofSeconds(15));
        assertFalse(metadata.success());
        assertTrue(receiver.received.isEmpty());
    }

    @Test
    void endpointRulesAndLimits() {
        as(key).body(Map.of("url", "not a url")).post("/api/v1/webhook_endpoints").then().statusCode(400).body("error.param", equalTo("url"));
        as(key).body(Map.of("url", receiver.url("/a"), "events", List.of("payment_intent.teleported")))
                .post("/api/v1/webhook_endpoints").then().statusCode(400).body("error.param", equalTo("events"));
        String first = null;
        for (int i = 0; i < 10; i++) {
            String id = as(key).body(Map.of("url", receiver.url("/e" + i))).post("/api/v1/webhook_endpoints").then().statusCode(201).extract().path("id");
            first = first == null ? id : first;
        }
        as(key).body(Map.of("url", receiver.url("/e11"))).post("/api/v1/webhook_endpoints").then().statusCode(409)
                .body("error.code", equalTo("WEBHOOK_ENDPOINT_LIMIT"));
        as(key).delete("/api/v1/webhook_endpoints/" + first).then().statusCode(204);
        as(key).delete("/api/v1/webhook_endpoints/" + first).then().statusCode(404);
        as(key).body(Map.of("url", receiver.url("/e11"))).post("/api/v1/webhook_endpoints").then().statusCode(201);
    }
}
