package ht.platform.wallet.rest;

import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.wallet.TestApi;
import ht.platform.wallet.service.PaymentService;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import ht.platform.wallet.jobs.ExpiryJob;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class PaymentApiTest {

    static final String MS = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

    @Inject
    MovableClock clock;

    @Inject
    ExpiryJob expiry;

    String project;
    String test;
    String live;

    @BeforeEach
    void setUp() {
        project = TestApi.project("Payments shop");
        test = TestApi.key(project, "test");
        live = TestApi.key(project, "live");
    }


    @Test
    void createAppliesTheFeeRuleAndReturnsTheWholePayment() {
        var r = as(test).body("{\"amount\":1000,\"currency\":\"HTG\",\"reference\":\"order-1\",\"description\":\"Two books\","
                        + "\"return_url\":\"https://shop.example.com/done\"}")
                .post("/api/v1/payments").then().statusCode(201)
                .body("id", matchesPattern("pay_[0-9a-f]{24}"))
                .body("object", equalTo("payment"))
                .body("status", equalTo("created"))
                .body("amount", equalTo(1000)).body("fee", equalTo(25)).body("total", equalTo(1025))
                .body("currency", equalTo("HTG")).body("reference", equalTo("order-1"))
                .body("description", equalTo("Two books")).body("return_url", equalTo("https://shop.example.com/done"))
                .body("mode", equalTo("test"))
                .body("wallet_url", matchesPattern("https?://[^/]+/wallet/wpt_[0-9a-f]{48}"))
                .body("created_at", matchesPattern(MS)).body("expires_at", matchesPattern(MS))
                .body("paid_at", nullValue())
                .extract();
        Instant created = Instant.parse(r.path("created_at"));
        Instant expires = Instant.parse(r.path("expires_at"));
        assertEquals(Duration.ofMinutes(30), Duration.between(created, expires));
        // 2.5 % rounded up to a whole unit, minimum 1
        as(test).body("{\"amount\":10,\"currency\":\"HTG\",\"reference\":\"r\"}").post("/api/v1/payments")
                .then().statusCode(201).body("fee", equalTo(1)).body("total", equalTo(11));
        as(test).body("{\"amount\":41,\"currency\":\"HTG\",\"reference\":\"r\"}").post("/api/v1/payments")
                .then().statusCode(201).body("fee", equalTo(2)).body("total", equalTo(43));
        as(test).body("{\"amount\":1,\"currency\":\"HTG\",\"reference\":\"r\"}").post("/api/v1/payments")
                .then().statusCode(201).body("fee", equalTo(1)).body("total", equalTo(2));
    }

    @Test
    void badBodiesAre400WithTheParam() {
        String[][] cases = {
                {"{\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":0,\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":-5,\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":10.5,\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":\"100\",\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":100000000000,\"currency\":\"HTG\",\"reference\":\"r\"}", "amount"},
                {"{\"amount\":100,\"currency\":\"USD\",\"reference\":\"r\"}", "currency"},
                {"{\"amount\":100,\"reference\":\"r\"}", "currency"},
                {"{\"amount\":100,\"currency\":\"HTG\"}", "reference"},
                {"{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"" + "x".repeat(101) + "\"}", "reference"},
                {"{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"r\",\"return_url\":\"javascript:alert(1)\"}", "return_url"},
                {"{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"r\",\"tip\":5}", "tip"},
        };
        for (String[] c : cases) {
            as(test).body(c[0]).post("/api/v1/payments").then().statusCode(400)
                    .body("error.param", equalTo(c[1])).body("error.request_id", notNullValue());
        }
        as(test).body("{\"amount\":").post("/api/v1/payments").then().statusCode(400).body("error.code", equalTo("INVALID_JSON"));
    }

    @Test
    void authenticationPermissionsAndModes() {
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/payments").then().statusCode(401)
                .body("error.code", equalTo("UNAUTHENTICATED"));
        String readOnly = TestApi.key(project, "test", "payments:read");
        as(readOnly).body("{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"r\"}").post("/api/v1/payments")
                .then().statusCode(403).body("error.code", equalTo("PERMISSION_DENIED"));
        String writeOnly = TestApi.key(project, "test", "payments:write");
        String id = TestApi.payment(writeOnly, 100);
        as(writeOnly).get("/api/v1/payments/" + id).then().statusCode(403).body("error.code", equalTo("PERMISSION_DENIED"));
        as(writeOnly).get("/api/v1/payments").then().statusCode(403);
        as(test).get("/api/v1/payments/" + id).then().statusCode(200).body("id", equalTo(id));
        // a live key never sees test objects, another project never sees ours: 404
        as(live).get("/api/v1/payments/" + id).then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));
        String other = TestApi.key(TestApi.project("Other"), "test");
        as(other).get("/api/v1/payments/" + id).then().statusCode(404);
        as(test).get("/api/v1/payments/pay_000000000000000000000000").then().statusCode(404);
        String liveId = TestApi.payment(live, 50);
        as(live).get("/api/v1/payments/" + liveId).then().statusCode(200).body("mode", equalTo("live"));
        as(test).get("/api/v1/payments/" + liveId).then().statusCode(404);
        // found by its id alone, then compared with the caller: the same answers for a change under a row lock and
        // for a list cursor
        as(other).post("/api/v1/test_helpers/payments/" + id + "/succeed").then().statusCode(404);
        as(test).post("/api/v1/test_helpers/payments/" + liveId + "/succeed").then().statusCode(404);
        as(other).get("/api/v1/payments?starting_after=" + id).then().statusCode(400).body("error.param", equalTo("starting_after"));
        as(test).get("/api/v1/payments?starting_after=" + liveId).then().statusCode(400).body("error.param", equalTo("starting_after"));
        as(test).get("/api/v1/payments/" + id).then().statusCode(200).body("status", equalTo("created"));
    }

    @Test
    void listIsNewestFirstWithCursor() {
        String a = TestApi.payment(test, 100);
        String b = TestApi.payment(test, 200);
        String c = TestApi.payment(test, 300);
        TestApi.payment(live, 400);
        var first = as(test).get("/api/v1/payments?limit=2").then().statusCode(200)
                .body("object", equalTo("list")).body("has_more", equalTo(true)).extract();
        assertEquals(List.of(c, b), first.path("data.id"));
        var second = as(test).get("/api/v1/payments?limit=2&starting_after=" + b).then().statusCode(200)
                .body("has_more", equalTo(false)).extract();
        assertEquals(List.of(a), second.path("data.id"));
        List<String> all = as(test).get("/api/v1/payments").then().statusCode(200).extract().path("data.mode");
        assertTrue(all.stream().allMatch("test"::equals));
        for (String bad : List.of("0", "101", "abc", "-1")) {
            as(test).get("/api/v1/payments?limit=" + bad).then().statusCode(400).body("error.param", equalTo("limit"));
        }
        as(test).get("/api/v1/payments?starting_after=pay_nope").then().statusCode(400).body("error.param", equalTo("starting_after"));
    }

    @Test
    void readByIdAnswersExactlyWhatTheOrmMapsForEveryField() {
        // GET by id reads through the plain reactive client; the list still goes through Hibernate: both must agree
        String paid = as(test).body("{\"amount\":1234,\"currency\":\"HTG\",\"reference\":\"ord-" + TestApi.newKey()
                        + "\",\"description\":\"Kòb pou machandiz\",\"return_url\":\"https://shop.example/back\"}")
                .post("/api/v1/payments").then().statusCode(201).extract().path("id");
        as(test).post("/api/v1/test_helpers/payments/" + paid + "/succeed").then().statusCode(200);
        String failed = TestApi.payment(test, 99);
        as(test).post("/api/v1/test_helpers/payments/" + failed + "/fail").then().statusCode(200);
        List<Map<String, Object>> listed = as(test).get("/api/v1/payments?limit=100").then().statusCode(200).extract().path("data");
        for (String id : List.of(paid, failed)) {
            Map<String, Object> byId = as(test).get("/api/v1/payments/" + id).then().statusCode(200).extract().path("");
            Map<String, Object> fromList = listed.stream().filter(p -> id.equals(p.get("id"))).findFirst().orElseThrow();
            assertEquals(fromList, byId);
        }
        Map<String, Object> succeeded = as(test).get("/api/v1/payments/" + paid).then().extract().path("");
        assertEquals("Kòb pou machandiz", succeeded.get("description"));
        assertEquals("https://shop.example/back", succeeded.get("return_url"));
        assertTrue(succeeded.get("paid_at") != null && succeeded.get("created_at") != null && succeeded.get("expires_at") != null);
        assertEquals("failed", as(test).get("/api/v1/payments/" + failed).then().extract().path("status"));
        assertTrue(as(test).get("/api/v1/payments/" + failed).then().extract().path("failure_reason") != null);
    }

    @Test
    void creationAnswersExactlyWhatTheOrmReadsBackForEveryField() {
        // the creation writes through the plain reactive client in one statement; the list reads through Hibernate
        String full = ",\"description\":\"Kòb pou machandiz\",\"return_url\":\"https://shop.example/back\"";
        for (String extra : List.of("", full)) {
            for (boolean keyed : List.of(true, false)) {
                String body = "{\"amount\":4321,\"currency\":\"HTG\",\"reference\":\"orm-" + TestApi.newKey() + "\"" + extra + "}";
                var request = keyed ? as(test).header("Idempotency-Key", TestApi.newKey()) : as(test);
                Map<String, Object> created = request.body(body).post("/api/v1/payments").then().statusCode(201).extract().path("");
                List<Map<String, Object>> listed = as(test).get("/api/v1/payments?limit=100").then().statusCode(200)
                        .extract().path("data");
                Map<String, Object> fromOrm = listed.stream().filter(p -> created.get("id").equals(p.get("id"))).findFirst()
                        .orElseThrow();
                assertEquals(fromOrm, created, "keyed " + keyed + ", body " + body);
            }
        }
    }

    @Test
    void idempotencyReplaysAndConflicts() {
        String key = TestApi.newKey();
        String body = "{\"amount\":700,\"currency\":\"HTG\",\"reference\":\"idem\"}";
        var first = as(test).header("Idempotency-Key", key).body(body).post("/api/v1/payments").then().statusCode(201).extract();
        var again = as(test).header("Idempotency-Key", key).body(body).post("/api/v1/payments").then().statusCode(201)
                .header("Idempotent-Replayed", "true").extract();
        assertEquals(first.asString(), again.asString());
        as(test).header("Idempotency-Key", key).body("{\"amount\":701,\"currency\":\"HTG\",\"reference\":\"idem\"}")
                .post("/api/v1/payments").then().statusCode(409).body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
        as(test).header("Idempotency-Key", "x".repeat(300)).body(body).post("/api/v1/payments").then().statusCode(400)
                .body("error.code", equalTo("INVALID_IDEMPOTENCY_KEY"));
        List<Object> refs = as(test).get("/api/v1/payments?limit=100").then().extract().path("data.findAll { it.reference == 'idem' }.id");
        assertEquals(1, refs.size());
        // the key names the request as before: its route and its body
        String named = "POST /api/v1/payments " + idempotency.write(new PaymentService.CreatePayment(700L, "HTG", "idem", null, null));
        assertEquals(Idempotency.sha256(named), pool.preparedQuery("SELECT request_hash FROM wallet.idempotency_keys"
                + " WHERE owner_id = $1 AND idempotency_key = $2").execute(Tuple.of(project, key))
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0));
    }

    @Inject
    Idempotency idempotency;

    @Inject
    Pool pool;

    @Test
    void testHelpersDriveEveryOutcomeAndFinalStatesAreFinal() {
        String ok = TestApi.payment(test, 1000);
        as(test).post("/api/v1/test_helpers/payments/" + ok + "/succeed").then().statusCode(200)
                .body("status", equalTo("succeeded")).body("paid_at", matchesPattern(MS));
        as(test).get("/api/v1/balance").then().statusCode(200).body("available", equalTo(1000)).body("reserved", equalTo(0))
                .body("currency", equalTo("HTG"));
        as(test).post("/api/v1/test_helpers/payments/" + ok + "/fail").then().statusCode(409)
                .body("error.code", equalTo("PAYMENT_ALREADY_FINAL"));
        String ko = TestApi.payment(test, 10);
        as(test).post("/api/v1/test_helpers/payments/" + ko + "/fail").then().statusCode(200).body("status", equalTo("failed"))
                .body("failure_reason", notNullValue());
        String ex = TestApi.payment(test, 10);
        as(test).post("/api/v1/test_helpers/payments/" + ex + "/expire").then().statusCode(200).body("status", equalTo("expired"));
        as(test).post("/api/v1/test_helpers/payments/" + ex + "/succeed").then().statusCode(409);
        as(test).post("/api/v1/test_helpers/payments/" + ex + "/explode").then().statusCode(404);
        as(test).post("/api/v1/test_helpers/payments/pay_missing/succeed").then().statusCode(404);
        String liveId = TestApi.payment(live, 10);
        as(live).post("/api/v1/test_helpers/payments/" + liveId + "/succeed").then().statusCode(403)
                .body("error.code", equalTo("PERMISSION_DENIED"));
        // the balance only moved by the succeeded amount (the fee is the gateway's)
        as(test).get("/api/v1/balance").then().body("available", equalTo(1000));
        as(live).get("/api/v1/balance").then().body("available", equalTo(0)).body("mode", equalTo("live"));
    }

    @Test
    void openingThePageMakesItPendingAndTheSchedulerExpiresDuePayments() {
        var created = as(test).body("{\"amount\":500,\"currency\":\"HTG\",\"reference\":\"page\"}").post("/api/v1/payments")
                .then().statusCode(201).extract();
        String id = created.path("id");
        String path = URI.create(created.<String>path("wallet_url")).getPath();
        given().get(path).then().statusCode(200).contentType(ContentType.HTML);
        as(test).get("/api/v1/payments/" + id).then().body("status", equalTo("pending"));
        given().get(path).then().statusCode(200);
        as(test).get("/api/v1/payments/" + id).then().body("status", equalTo("pending"));
        String untouched = TestApi.payment(test, 20);

        clock.advance(Duration.ofMinutes(29));
        expiry.runNow().await().atMost(Duration.ofSeconds(30));
        as(test).get("/api/v1/payments/" + id).then().body("status", equalTo("pending"));
        clock.advance(Duration.ofMinutes(2));
        int expired = expiry.runNow().await().atMost(Duration.ofSeconds(30));
        assertTrue(expired >= 2);
        as(test).get("/api/v1/payments/" + id).then().body("status", equalTo("expired"));
        as(test).get("/api/v1/payments/" + untouched).then().body("status", equalTo("expired"));
        as(test).post("/api/v1/test_helpers/payments/" + id + "/succeed").then().statusCode(409);
        given().get("/wallet/wpt_" + "0".repeat(48)).then().statusCode(404).contentType(ContentType.HTML);
        // a live payment's page offers no outcome: posting one is refused and changes nothing
        var livePayment = as(live).body("{\"amount\":500,\"currency\":\"HTG\",\"reference\":\"live\"}").post("/api/v1/payments")
                .then().statusCode(201).extract();
        String livePath = URI.create(livePayment.<String>path("wallet_url")).getPath();
        given().get(livePath).then().statusCode(200);
        given().formParam("lang", "fr").post(livePath + "/succeed").then().statusCode(403).contentType(ContentType.HTML);
        as(live).get("/api/v1/payments/" + livePayment.path("id")).then().body("status", equalTo("pending"));
        given().formParam("lang", "fr").post(livePath + "/refund").then().statusCode(404);
        // a test payment: the form posts the outcome and redirects back to the page
        var testPayment = as(test).body("{\"amount\":500,\"currency\":\"HTG\",\"reference\":\"form\"}").post("/api/v1/payments")
                .then().statusCode(201).extract();
        String testPath = URI.create(testPayment.<String>path("wallet_url")).getPath();
        given().redirects().follow(false).formParam("lang", "en").post(testPath + "/succeed").then().statusCode(303)
                .header("Location", org.hamcrest.Matchers.endsWith(testPath + "?lang=en"));
        as(test).get("/api/v1/payments/" + testPayment.path("id")).then().body("status", equalTo("succeeded"));
        assertFalse(given().get("/wallet/nope").then().statusCode(404).extract().asString().isEmpty());
    }
}
