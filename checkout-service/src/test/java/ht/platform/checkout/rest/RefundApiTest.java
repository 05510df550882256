package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class RefundApiTest {

    String testKey;

    @BeforeEach
    void setUp() {
        testKey = TestApi.key(TestApi.application("Refunds " + System.nanoTime()), "test", null);
    }

    static String k() {
        return "rf-" + System.nanoTime();
    }

    @Test
    void partialThenFullRefund() {
        String id = TestApi.paidIntent(testKey, "100");
        as(testKey).body(Map.of("payment_intent", id, "amount", "30")).post("/api/v1/refunds").then().statusCode(400)
                .body("error.code", equalTo("IDEMPOTENCY_KEY_REQUIRED"));
        String r1 = as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", id, "amount", "30.25", "reason", "requested_by_customer"))
                .post("/api/v1/refunds").then().statusCode(201).body("object", equalTo("refund"))
                .body("id", startsWith("pay_re_")).body("amount", equalTo("30.250000")).body("status", equalTo("pending"))
                .body("payment_intent", equalTo(id)).extract().path("id");
        as(testKey).get("/api/v1/refunds/" + r1).then().statusCode(200).body("status", equalTo("succeeded"));
        as(testKey).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("partially_refunded"))
                .body("amount_refunded", equalTo("30.250000"));
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", id, "amount", "69.750001"))
                .post("/api/v1/refunds").then().statusCode(409).body("error.code", equalTo("REFUND_EXCEEDS_AVAILABLE"));
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", id)).post("/api/v1/refunds").then().statusCode(201)
                .body("amount", equalTo("69.750000"));
        as(testKey).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("refunded"))
                .body("amount_refunded", equalTo("100.000000"));
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", id, "amount", "1")).post("/api/v1/refunds")
                .then().statusCode(409).body("error.code", equalTo("PAYMENT_INTENT_UNEXPECTED_STATE"));
    }

    @Test
    void refusesUnpaidUnknownAndInvalid() {
        String unpaid = TestApi.createIntent(testKey, "10");
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", unpaid)).post("/api/v1/refunds").then().statusCode(409)
                .body("error.code", equalTo("PAYMENT_INTENT_UNEXPECTED_STATE"));
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", "pay_pi_nope")).post("/api/v1/refunds").then().statusCode(404);
        String paid = TestApi.paidIntent(testKey, "10");
        as(testKey).header("Idempotency-Key", k()).body("{\"payment_intent\":\"" + paid + "\",\"amount\":5}").post("/api/v1/refunds")
                .then().statusCode(400).body("error.param", equalTo("amount"));
        as(testKey).header("Idempotency-Key", k()).body(Map.of("payment_intent", paid, "reason", "because")).post("/api/v1/refunds")
                .then().statusCode(400).body("error.param", equalTo("reason"));
        String other = TestApi.key(TestApi.application("Other"), "test", null);
        as(other).header("Idempotency-Key", k()).body(Map.of("payment_intent", paid)).post("/api/v1/refunds").then().statusCode(404);
    }

    @Test
    void replayReturnsTheSameRefundAndConflictsOnOtherContent() {
        String id = TestApi.paidIntent(testKey, "10");
        String key = k();
        Response a = as(testKey).header("Idempotency-Key", key).body(Map.of("payment_intent", id, "amount", "2")).post("/api/v1/refunds");
        Response b = as(testKey).header("Idempotency-Key", key).body(Map.of("payment_intent", id, "amount", "2")).post("/api/v1/refunds");
        assertEquals(201, a.statusCode());
        assertEquals(201, b.statusCode());
        assertEquals(a.asString(), b.asString());
        assertEquals("true", b.header("Idempotent-Replayed"));
        as(testKey).header("Idempotency-Key", key).body(Map.of("payment_intent", id, "amount", "3")).post("/api/v1/refunds")
                .then().statusCode(409).body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
        as(testKey).get("/api/v1/payment_intents/" + id).then().body("amount_refunded", equalTo("2.000000"));
    }

    @Test
    void thirtyConcurrentIdenticalRefundsRefundOnce() throws Exception {
        String id = TestApi.paidIntent(testKey, "10");
        String key = k();
        List<Response> responses = fire(30, i -> as(testKey).header("Idempotency-Key", key)
                .body(Map.of("payment_intent", id, "amount", "4")).post("/api/v1/refunds"));
        Set<String> ids = new HashSet<>();
        for (Response r : responses) {
            if (r.statusCode() == 201) {
                ids.add(r.path("id"));
            } else {
                assertEquals(409, r.statusCode());
                assertEquals("IDEMPOTENCY_KEY_IN_USE", r.path("error.code"));
            }
        }
        assertEquals(1, ids.size());
        as(testKey).get("/api/v1/payment_intents/" + id).then().body("amount_refunded", equalTo("4.000000"));
    }

    @Test
    void fiftyConcurrentPartialRefundsNeverExceedTheAmountReceived() throws Exception {
        String id = TestApi.paidIntent(testKey, "100");
        List<Response> responses = fire(50, i -> as(testKey).header("Idempotency-Key", "par-" + i + "-" + System.nanoTime())
                .body(Map.of("payment_intent", id, "amount", "3.000001")).post("/api/v1/refunds"));
        int created = 0;
        for (Response r : responses) {
            if (r.statusCode() == 201) {
                created++;
            } else {
                assertEquals(409, r.statusCode(), r.asString());
                assertEquals("REFUND_EXCEEDS_AVAILABLE", r.path("error.code"));
            }
        }
        assertEquals(33, created); // floor(100 / 3.000001)
        String refunded = as(testKey).get("/api/v1/payment_intents/" + id).then().statusCode(200).extract().path("amount_refunded");
        BigDecimal total = new BigDecimal(refunded);
        assertTrue(total.compareTo(new BigDecimal("100")) <= 0);
        assertEquals(0, total.compareTo(new BigDecimal("3.000001").multiply(BigDecimal.valueOf(33))));
    }

    interface Call {
        Response run(int i);
    }

    static List<Response> fire(int n, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Callable<Response>> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int j = i;
                calls.add(() -> call.run(j));
            }
            List<Response> out = new ArrayList<>();
            for (Future<Response> f : pool.invokeAll(calls)) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
