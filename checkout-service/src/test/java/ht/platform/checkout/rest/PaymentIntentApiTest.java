package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.events.EventOutbox;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.checkout.service.Requests;
import ht.platform.checkout.service.Views;
import ht.platform.support.http.PublicUrls;
import ht.platform.support.idempotency.Idempotency;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import ht.platform.support.auth.ApiPrincipal;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
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

    @Inject
    PaymentIntentStore intents;

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
        String createOnly = TestApi.key(app, "test", List.of("payment_intents:create"));
        as(createOnly).get("/api/v1/payment_intents/" + id).then().statusCode(403).body("error.code", equalTo("INSUFFICIENT_SCOPE"))
                .body("error.message", containsString("payment_intents:read"));
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
        as(other).get("/api/v1/payment_intents/" + id).then().statusCode(404).body("error.code", equalTo("NOT_FOUND"))
                .body("$", not(hasKey("status")));
        as(testKey).get("/api/v1/payment_intents/pay_pi_01ARZ3NDEKTSV4RRFFQ69G5FAV").then().statusCode(404)
                .body("error.code", equalTo("NOT_FOUND"));
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
    void readByIdAnswersExactlyWhatTheOrmMapsForEveryField() throws Throwable {
        // GET by id reads through the plain reactive client; the list and reload() still go through Hibernate: both must agree
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(as(testKey).body(Map.of("amount", "125.5", "currency", "HTG", "description", "Kòb pou machandiz",
                        "external_reference", "ord-" + System.nanoTime(), "return_url", "https://shop.example/back?x=1",
                        "expires_in", 900))
                .post("/api/v1/payment_intents").then().statusCode(201).extract().path("id"), "requires_payment_method");
        expected.put(TestApi.paidIntent(testKey, "100.000001"), "succeeded");
        String partial = TestApi.paidIntent(testKey, "100");
        refund(partial, "30.25");
        expected.put(partial, "partially_refunded");
        String refunded = TestApi.paidIntent(testKey, "40");
        refund(refunded, null);
        expected.put(refunded, "refunded");
        String failed = TestApi.createIntent(testKey, "10");
        TestApi.simulate(testKey, failed, "failed").statusCode(200);
        expected.put(failed, "failed");
        String cancelled = TestApi.createIntent(testKey, "10");
        as(testKey).post("/api/v1/payment_intents/" + cancelled + "/cancel").then().statusCode(200);
        expected.put(cancelled, "cancelled");
        String action = TestApi.createIntent(testKey, "10");
        TestApi.simulate(testKey, action, "requires_action").statusCode(200);
        expected.put(action, "requires_action");
        String reserved = manualIntent();
        TestApi.simulate(testKey, reserved, "succeeded").statusCode(200);
        expected.put(reserved, "requires_capture");
        String captured = manualIntent();
        TestApi.simulate(testKey, captured, "succeeded").statusCode(200);
        as(testKey).body(Map.of("amount_to_capture", "12.5")).post("/api/v1/payment_intents/" + captured + "/capture")
                .then().statusCode(200);
        expected.put(captured, "succeeded");
        String link = as(testKey).body(Map.of("amount", "7.25", "currency", "USD", "description", "Don",
                        "return_url", "https://shop.example/thanks"))
                .post("/api/v1/payment_links").then().statusCode(201).extract().path("id");
        String session = TestApi.openLink(link)
                .replaceAll("^.*/pay/(pay_cs_[0-9A-Z]+).*$", "$1");
        List<Map<String, Object>> listed = as(testKey).get("/api/v1/payment_intents?limit=100").then().statusCode(200)
                .extract().path("data");
        expected.put(listed.stream().filter(p -> ((String) p.get("checkout_url")).endsWith("/pay/" + session))
                .map(p -> (String) p.get("id")).findFirst().orElseThrow(), "requires_payment_method");

        List<PaymentIntent> read = new ArrayList<>(assertReadMatchesOrm(testKey, "test", expected));
        read.addAll(assertReadMatchesOrm(liveKey, "live", Map.of(TestApi.createIntent(liveKey, "3"), "requires_payment_method")));
        for (Field f : mappedFields()) {
            assertTrue(read.stream().anyMatch(pi -> get(f, pi) != null), "no fixture sets " + f.getName());
        }
        assertEquals(mappedFields().size(), PaymentIntent.COLUMNS.split(",").length);
    }

    /** Each intent's GET equals its entry in the (Hibernate) list, and get() equals reload() on every mapped field. */
    List<PaymentIntent> assertReadMatchesOrm(String key, String mode, Map<String, String> statuses) throws Throwable {
        List<Map<String, Object>> listed = as(key).get("/api/v1/payment_intents?limit=100").then().statusCode(200)
                .extract().path("data");
        ApiPrincipal caller = new ApiPrincipal("key", app, mode, Set.of(), true);
        List<PaymentIntent> read = new ArrayList<>();
        for (var e : statuses.entrySet()) {
            String id = e.getKey();
            Map<String, Object> byId = as(key).get("/api/v1/payment_intents/" + id).then().statusCode(200).extract().path("");
            assertEquals(e.getValue(), byId.get("status"), id);
            assertEquals(listed.stream().filter(p -> id.equals(p.get("id"))).findFirst().orElseThrow(), byId);
            PaymentIntent plain = VertxContextSupport.subscribeAndAwait(() -> intents.readOwned(id, caller.ownerId(), caller.mode()));
            PaymentIntent orm = VertxContextSupport.subscribeAndAwait(() -> intents.read(id));
            for (Field f : mappedFields()) {
                assertEquals(get(f, orm), get(f, plain), id + " " + f.getName());
            }
            read.add(plain);
        }
        return read;
    }

    /** Quarkus turns the public fields into protected ones with accessors, and adds Hibernate's transient ones. */
    static List<Field> mappedFields() {
        return Arrays.stream(PaymentIntent.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers()))
                .peek(f -> f.setAccessible(true)).toList();
    }

    static Object get(Field f, PaymentIntent pi) {
        try {
            return f.get(pi);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    String manualIntent() {
        return as(testKey).body(Map.of("amount", "50", "currency", "USD", "capture_method", "manual"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract().path("id");
    }

    void refund(String id, String amount) {
        Map<String, String> body = amount == null ? Map.of("payment_intent", id) : Map.of("payment_intent", id, "amount", amount);
        as(testKey).header("Idempotency-Key", "rf-" + System.nanoTime()).body(body).post("/api/v1/refunds").then().statusCode(201);
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
    void creationAnswersExactlyWhatTheOrmReadsBackForEveryField() throws Throwable {
        // the creation writes the key, the intent and its event in one statement; Hibernate reads the row back
        as(testKey).body(Map.of("url", "http://127.0.0.1:9/created", "events", List.of("payment_intent.created")))
                .post("/api/v1/webhook_endpoints").then().statusCode(201);
        Map<String, Object> full = Map.of("description", "Kòb pou machandiz — 日本", "external_reference", "ord-ü-" + System.nanoTime(),
                "return_url", "https://shop.example/back?x=1", "capture_method", "manual", "expires_in", 900);
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), full)) {
            for (boolean keyed : List.of(true, false)) {
                Map<String, Object> body = new LinkedHashMap<>(extra);
                body.put("amount", "125.5");
                body.put("currency", "USD");
                String key = "orm-" + System.nanoTime();
                var request = keyed ? as(testKey).header("Idempotency-Key", key) : as(testKey);
                Response created = request.body(body).post("/api/v1/payment_intents");
                assertEquals(201, created.statusCode(), created.asString());
                String id = created.path("id");
                PaymentIntent orm = VertxContextSupport.subscribeAndAwait(() -> intents.read(id));
                assertEquals(idempotency.write(Views.of(orm, urls.base())), created.asString(), keyed + " " + body);
                List<Map<String, Object>> listed = as(testKey).get("/api/v1/payment_intents?limit=100").then().statusCode(200)
                        .extract().path("data");
                assertEquals(listed.stream().filter(p -> id.equals(p.get("id"))).findFirst().orElseThrow(), created.path(""));
                assertEquals(orm.createdAt, orm.updatedAt);
                assertTrue(created.<String>path("checkout_url").endsWith("/pay/" + orm.sessionId));
                assertEquals(java.util.Arrays.asList(null, null, null, null), java.util.Arrays.asList(orm.paymentLinkId,
                        orm.paymentMethod, orm.lastErrorCode, orm.lastErrorMessage));

                // its event: payment_intent.created with the data of the row as Hibernate maps it, one delivery
                Row event = pool.preparedQuery("SELECT id, type, body FROM checkout.outbox_events WHERE object_id = $1")
                        .execute(Tuple.of(id)).await().atMost(Duration.ofSeconds(10)).iterator().next();
                assertEquals("payment_intent.created", event.getString("type"));
                String eventBody = event.getBuffer("body").toString(StandardCharsets.UTF_8);
                assertTrue(eventBody.startsWith("{\"id\":\"" + event.getString("id") + "\",\"type\":\"payment_intent.created\","
                        + "\"mode\":\"test\",\"created_at\":\""), eventBody);
                assertTrue(eventBody.endsWith("\",\"data\":" + idempotency.write(EventOutbox.paymentIntentData(orm)) + "}"),
                        eventBody);
                assertEquals(1L, pool.preparedQuery("SELECT count(*) FROM checkout.outbox_deliveries WHERE event_id = $1")
                        .execute(Tuple.of(event.getString("id"))).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0));

                if (keyed) {
                    var again = as(testKey).header("Idempotency-Key", key).body(body).post("/api/v1/payment_intents").then()
                            .statusCode(201).header("Idempotent-Replayed", "true").extract();
                    assertEquals(created.asString(), again.asString());
                    // the key names the request as before: its route and its body
                    String named = "POST /api/v1/payment_intents "
                            + idempotency.write(mapper.readValue(idempotency.write(body), Requests.CreatePaymentIntent.class));
                    assertEquals(Idempotency.sha256(named), pool.preparedQuery("SELECT request_hash FROM checkout.idempotency_keys"
                            + " WHERE owner_id = $1 AND idempotency_key = $2").execute(Tuple.of(app, key))
                            .await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0));
                    body.put("amount", "125.6");
                    as(testKey).header("Idempotency-Key", key).body(body).post("/api/v1/payment_intents").then().statusCode(409)
                            .body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
                }
            }
        }
    }

    @Inject
    Idempotency idempotency;

    @Inject
    com.fasterxml.jackson.databind.ObjectMapper mapper;

    @Inject
    PublicUrls urls;

    @Inject
    Pool pool;

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
