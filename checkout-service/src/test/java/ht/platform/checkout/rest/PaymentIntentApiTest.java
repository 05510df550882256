package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class PaymentIntentApiTest {

    String app;
    String testKey;
    String liveKey;

    @BeforeEach
    void setUp() {
        app = TestApi.application("Shop " + System.nanoTime());
        testKey = TestApi.key(app, "test", null);
        liveKey = TestApi.key(app, "live", null);
    }

    @Test
    void createsAnIntentWithSixDecimalsAndCheckoutUrl() {
        as(testKey).body(Map.of("amount", "125.5", "currency", "HTG", "description", "Order 42", "external_reference", "ord-42",
                        "return_url", "https://shop.example/done"))
                .post("/api/v1/payment_intents").then().statusCode(201)
                .header(TestApi.REQUEST_ID, startsWith("req_"))
                .body("id", matchesPattern("pay_pi_[0-9A-HJKMNP-TV-Z]{26}"))
                .body("object", equalTo("payment_intent"))
                .body("status", equalTo("requires_payment_method"))
                .body("amount", equalTo("125.500000"))
                .body("amount_received", equalTo("0.000000"))
                .body("currency", equalTo("HTG"))
                .body("mode", equalTo("test"))
                .body("capture_method", equalTo("automatic"))
                .body("external_reference", equalTo("ord-42"))
                .body("created_at", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"))
                .body("expires_at", notNullValue())
                .body("checkout_url", matchesPattern("http://localhost:8082/pay/pay_cs_[0-9A-Z]{26}"));
    }

    @Test
    void refusesBadAmountsCurrenciesAndFields() {
        as(testKey).body("{\"amount\":125.5,\"currency\":\"HTG\"}").post("/api/v1/payment_intents").then().statusCode(400)
                .body("error.param", equalTo("amount")).body("error.request_id", startsWith("req_"));
        as(testKey).body("{\"amount\":100,\"currency\":\"HTG\"}").post("/api/v1/payment_intents").then().statusCode(400)
                .body("error.param", equalTo("amount"));
        for (String bad : List.of("0", "-1", "+1", "1e3", "1.1234567", "01", "abc", "", "1000000000000", " 1")) {
            as(testKey).body(Map.of("amount", bad, "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(400)
                    .body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo("amount"));
        }
        as(testKey).body(Map.of("amount", "999999999999.999999", "currency", "USD")).post("/api/v1/payment_intents")
                .then().statusCode(201).body("amount", equalTo("999999999999.999999"));
        as(testKey).body(Map.of("amount", "1", "currency", "EUR")).post("/api/v1/payment_intents").then().statusCode(400)
                .body("error.param", equalTo("currency"));
        as(testKey).body(Map.of("amount", "1", "currency", "htg")).post("/api/v1/payment_intents").then().statusCode(400);
        as(testKey).body(Map.of("amount", "1")).post("/api/v1/payment_intents").then().statusCode(400).body("error.param", equalTo("currency"));
        as(testKey).body(Map.of("amount", "1", "currency", "HTG", "capture_method", "later")).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("capture_method"));
        as(testKey).body(Map.of("amount", "1", "currency", "HTG", "expires_in", 10)).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("expires_in"));
        as(testKey).body(Map.of("amount", "1", "currency", "HTG", "return_url", "ftp://x")).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("return_url"));
        as(liveKey).body(Map.of("amount", "1", "currency", "HTG", "return_url", "http://localhost/x")).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("return_url"));
        as(testKey).body(Map.of("amount", "1", "currency", "HTG", "description", "x".repeat(1001))).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("description"));
        as(testKey).body(Map.of("amount", "1", "currency", "HTG", "colour", "red")).post("/api/v1/payment_intents")
                .then().statusCode(400).body("error.param", equalTo("colour"));
    }

    @Test
    void scopesAreEnforcedWith403InsufficientScope() {
        String readOnly = TestApi.key(app, "test", List.of("payment_intents:read"));
        as(readOnly).body(Map.of("amount", "1", "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(403)
                .body("error.code", equalTo("INSUFFICIENT_SCOPE")).body("error.message", containsString("payment_intents:create"))
                .header(TestApi.REQUEST_ID, startsWith("req_"));
        String id = TestApi.createIntent(testKey, "5");
        as(readOnly).get("/api/v1/payment_intents/" + id).then().statusCode(200);
        as(readOnly).post("/api/v1/payment_intents/" + id + "/cancel").then().statusCode(403).body("error.code", equalTo("INSUFFICIENT_SCOPE"));
        as(readOnly).header("Idempotency-Key", "k1").body(Map.of("payment_intent", id)).post("/api/v1/refunds").then().statusCode(403);
        as(readOnly).get("/api/v1/refunds/pay_re_x").then().statusCode(403);
        as(readOnly).body(Map.of("amount", "1", "currency", "HTG")).post("/api/v1/payment_links").then().statusCode(403);
        as(readOnly).get("/api/v1/payment_links/pay_pl_x").then().statusCode(403);
        as(readOnly).get("/api/v1/webhook_endpoints").then().statusCode(403);
        as(readOnly).get("/api/v1/events").then().statusCode(403);
        as(readOnly).get("/api/v1/customers/cus_1").then().statusCode(403);
        as(testKey).get("/api/v1/customers/cus_1").then().statusCode(404);
        as(readOnly).get("/api/v1/payment_methods").then().statusCode(200);
        given().get("/api/v1/payment_intents").then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
    }

    @Test
    void objectsAreInvisibleAcrossModesAndApplications() {
        String id = TestApi.createIntent(testKey, "5");
        as(liveKey).get("/api/v1/payment_intents/" + id).then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));
        String other = TestApi.key(TestApi.application("Other"), "test", null);
        as(other).get("/api/v1/payment_intents/" + id).then().statusCode(404);
        as(other).post("/api/v1/payment_intents/" + id + "/cancel").then().statusCode(404);
        as(liveKey).body(Map.of("payment_method", "test_card", "outcome", "succeeded"))
                .post("/api/v1/test_helpers/payment_intents/" + id + "/simulate").then().statusCode(403);
    }

    @Test
    void listIsNewestFirstWithCursor() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(TestApi.createIntent(testKey, "1." + i));
        }
        List<String> page1 = as(testKey).queryParam("limit", 3).get("/api/v1/payment_intents").then().statusCode(200)
                .body("object", equalTo("list")).body("has_more", equalTo(true)).extract().path("data.id");
        List<String> page2 = as(testKey).queryParam("limit", 3).queryParam("starting_after", page1.get(2))
                .get("/api/v1/payment_intents").then().statusCode(200).body("has_more", equalTo(false)).extract().path("data.id");
        List<String> all = new ArrayList<>(page1);
        all.addAll(page2);
        List<String> expected = new ArrayList<>(ids);
        java.util.Collections.reverse(expected);
        assertEquals(expected, all);
        as(testKey).queryParam("limit", 0).get("/api/v1/payment_intents").then().statusCode(400).body("error.param", equalTo("limit"));
        as(testKey).queryParam("status", "nope").get("/api/v1/payment_intents").then().statusCode(400);
        as(testKey).queryParam("status", "requires_payment_method").get("/api/v1/payment_intents").then().statusCode(200)
                .body("data.size()", equalTo(5));
        as(liveKey).get("/api/v1/payment_intents").then().statusCode(200).body("data.size()", equalTo(0));
    }

    @Test
    void cancelAndIllegalMoves() {
        String id = TestApi.createIntent(testKey, "10");
        as(testKey).post("/api/v1/payment_intents/" + id + "/capture").then().statusCode(409)
                .body("error.code", equalTo("PAYMENT_INTENT_UNEXPECTED_STATE"));
        as(testKey).post("/api/v1/payment_intents/" + id + "/cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        as(testKey).post("/api/v1/payment_intents/" + id + "/cancel").then().statusCode(409)
                .body("error.code", equalTo("PAYMENT_INTENT_UNEXPECTED_STATE"));
        TestApi.simulate(testKey, id, "succeeded").statusCode(409).body("error.code", equalTo("PAYMENT_INTENT_UNEXPECTED_STATE"));

        String paid = TestApi.paidIntent(testKey, "10");
        as(testKey).get("/api/v1/payment_intents/" + paid).then().body("status", equalTo("succeeded"))
                .body("amount_received", equalTo("10.000000")).body("payment_method", equalTo("test_card"));
        as(testKey).post("/api/v1/payment_intents/" + paid + "/cancel").then().statusCode(409);

        String failed = TestApi.createIntent(testKey, "10");
        TestApi.simulate(testKey, failed, "failed").statusCode(200).body("status", equalTo("failed"))
                .body("last_payment_error.code", equalTo("card_declined"));
    }

    @Test
    void requiresActionThenSucceeds() {
        String id = TestApi.createIntent(testKey, "10");
        TestApi.simulate(testKey, id, "requires_action").statusCode(200).body("status", equalTo("requires_action"));
        TestApi.simulate(testKey, id, "succeeded").statusCode(200).body("status", equalTo("succeeded"));
    }

    @Test
    void manualCaptureReservesThenCapturesOrReleases() {
        String id = as(testKey).body(Map.of("amount", "50", "currency", "USD", "capture_method", "manual"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract().path("id");
        TestApi.simulate(testKey, id, "succeeded").statusCode(200).body("status", equalTo("requires_capture"))
                .body("amount_received", equalTo("0.000000"));
        as(testKey).body(Map.of("amount_to_capture", "60")).post("/api/v1/payment_intents/" + id + "/capture").then().statusCode(400);
        as(testKey).body(Map.of("amount_to_capture", "40")).post("/api/v1/payment_intents/" + id + "/capture").then().statusCode(200)
                .body("status", equalTo("succeeded")).body("amount_received", equalTo("40.000000"));
        as(testKey).post("/api/v1/payment_intents/" + id + "/capture").then().statusCode(409);

        String other = as(testKey).body(Map.of("amount", "50", "currency", "USD", "capture_method", "manual"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract().path("id");
        TestApi.simulate(testKey, other, "succeeded").statusCode(200).body("status", equalTo("requires_capture"));
        as(testKey).post("/api/v1/payment_intents/" + other + "/cancel").then().statusCode(200).body("status", equalTo("cancelled"));
    }

    @Test
    void idempotentCreationReplaysExactlyAndRefusesOtherContent() {
        Response first = as(testKey).header("Idempotency-Key", "ord-" + System.nanoTime() + "-a")
                .body(Map.of("amount", "12.34", "currency", "HTG")).post("/api/v1/payment_intents");
        String key = "ord-" + System.nanoTime();
        Response a = as(testKey).header("Idempotency-Key", key).body(Map.of("amount", "12.34", "currency", "HTG")).post("/api/v1/payment_intents");
        Response b = as(testKey).header("Idempotency-Key", key).body(Map.of("amount", "12.34", "currency", "HTG")).post("/api/v1/payment_intents");
        assertEquals(201, first.statusCode());
        assertEquals(201, a.statusCode());
        assertEquals(201, b.statusCode());
        assertEquals(a.asString(), b.asString());
        as(testKey).header("Idempotency-Key", key).body(Map.of("amount", "99", "currency", "HTG")).post("/api/v1/payment_intents")
                .then().statusCode(409).body("error.code", equalTo("IDEMPOTENCY_CONFLICT")).body("$", not(hasKey("id")));
        // the same key in live mode is another scope
        as(liveKey).header("Idempotency-Key", key).body(Map.of("amount", "12.34", "currency", "HTG")).post("/api/v1/payment_intents")
                .then().statusCode(201).body("mode", equalTo("live"));
    }

    @Test
    void thirtyConcurrentIdenticalCreationsMakeOneIntent() throws Exception {
        String key = "race-" + System.nanoTime();
        String body = "{\"amount\":\"77.000001\",\"currency\":\"USD\",\"external_reference\":\"" + key + "\"}";
        ExecutorService pool = Executors.newFixedThreadPool(30);
        try {
            List<Callable<Response>> calls = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                calls.add(() -> as(testKey).header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                        .post("/api/v1/payment_intents"));
            }
            Set<String> ids = new HashSet<>();
            Set<String> bodies = new HashSet<>();
            int ok = 0;
            for (Future<Response> f : pool.invokeAll(calls)) {
                Response r = f.get();
                if (r.statusCode() == 201) {
                    ok++;
                    ids.add(r.path("id"));
                    bodies.add(r.asString());
                } else {
                    assertEquals(409, r.statusCode(), r.asString());
                    assertEquals("IDEMPOTENCY_KEY_IN_USE", r.path("error.code"));
                }
            }
            assertTrue(ok >= 1);
            assertEquals(1, ids.size());
            assertEquals(1, bodies.size());
        } finally {
            pool.shutdownNow();
        }
        List<String> found = as(testKey).queryParam("limit", 100).get("/api/v1/payment_intents").then().extract().path("data.external_reference");
        assertEquals(1, found.stream().filter(key::equals).count());
    }

    @Test
    void openApiDocumentsEveryEndpoint() {
        given().get("/openapi.json").then().statusCode(200).body("openapi", startsWith("3.1"))
                .body("paths", hasKey("/api/v1/payment_intents"))
                .body("paths", hasKey("/api/v1/payment_intents/{id}"))
                .body("paths", hasKey("/api/v1/payment_intents/{id}/cancel"))
                .body("paths", hasKey("/api/v1/payment_intents/{id}/capture"))
                .body("paths", hasKey("/api/v1/refunds"))
                .body("paths", hasKey("/api/v1/refunds/{id}"))
                .body("paths", hasKey("/api/v1/payment_links"))
                .body("paths", hasKey("/api/v1/payment_links/{id}"))
                .body("paths", hasKey("/api/v1/payment_methods"))
                .body("paths", hasKey("/api/v1/webhook_endpoints"))
                .body("paths", hasKey("/api/v1/events/{id}/resend"))
                .body("paths", hasKey("/api/v1/test_helpers/payment_intents/{id}/simulate"))
                .body("components.schemas", hasKey("PaymentIntent"))
                .body("components.schemas", hasKey("Refund"))
                .body("paths.'/api/v1/refunds'.post.description", containsString("REFUND_EXCEEDS_AVAILABLE"))
                .body("paths.'/api/v1/payment_intents'.post.description", containsString("INSUFFICIENT_SCOPE"));
    }
}
