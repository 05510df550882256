package ht.platform.wallet.rest;

import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class WithdrawalApiTest {

    String project;
    String test;
    String live;

    @BeforeEach
    void setUp() {
        project = TestApi.project("Withdrawals shop");
        test = TestApi.key(project, "test");
        live = TestApi.key(project, "live");
    }

    static String body(long amount) {
        return "{\"amount\":" + amount + ",\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"},\"reference\":\"wd-ref\"}";
    }

    Response create(String key, long amount) {
        return as(key).header("Idempotency-Key", TestApi.newKey()).body(body(amount)).post("/api/v1/withdrawals");
    }

    void balance(String key, long available, long reserved) {
        as(key).get("/api/v1/balance").then().statusCode(200).body("object", equalTo("balance"))
                .body("available", equalTo((int) available)).body("reserved", equalTo((int) reserved)).body("currency", equalTo("HTG"));
    }

    @Test
    void createReservesTheTotalAndShowsTheMaskedDestination() {
        TestApi.fund(test, 10_000);
        balance(test, 10_000, 0);
        var w = create(test, 1000).then().statusCode(201)
                .body("id", matchesPattern("wd_[0-9a-f]{24}")).body("object", equalTo("withdrawal"))
                .body("status", equalTo("requested")).body("amount", equalTo(1000)).body("fee", equalTo(10))
                .body("total", equalTo(1010)).body("currency", equalTo("HTG"))
                .body("destination.type", equalTo("wallet")).body("destination.msisdn", equalTo("+*******1234"))
                .body("reference", equalTo("wd-ref")).body("created_at", notNullValue())
                .body("completed_at", nullValue()).body("failure_reason", nullValue()).extract();
        assertTrue(!w.asString().contains("37001234"), "the full number never appears");
        balance(test, 8_990, 1_010);
        String id = w.path("id");
        as(test).get("/api/v1/withdrawals/" + id).then().statusCode(200).body("status", equalTo("requested"));
        as(live).get("/api/v1/withdrawals/" + id).then().statusCode(404);
        as(live).post("/api/v1/withdrawals/" + id + "/cancel").then().statusCode(404);
        as(test).get("/api/v1/withdrawals/wd_missing").then().statusCode(404);
    }

    @Test
    void idempotencyKeyIsRequiredAndReplays() {
        TestApi.fund(test, 5_000);
        as(test).body(body(100)).post("/api/v1/withdrawals").then().statusCode(400)
                .body("error.code", equalTo("IDEMPOTENCY_KEY_REQUIRED"));
        String key = TestApi.newKey();
        String first = as(test).header("Idempotency-Key", key).body(body(100)).post("/api/v1/withdrawals")
                .then().statusCode(201).extract().asString();
        String again = as(test).header("Idempotency-Key", key).body(body(100)).post("/api/v1/withdrawals")
                .then().statusCode(201).header("Idempotent-Replayed", "true").extract().asString();
        assertEquals(first, again);
        balance(test, 5_000 - 101, 101);
        as(test).header("Idempotency-Key", key).body(body(200)).post("/api/v1/withdrawals").then().statusCode(409)
                .body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
    }

    @Test
    void insufficientBalanceIs409AndLeavesNothingBehind() {
        create(test, 100).then().statusCode(409).body("error.code", equalTo("INSUFFICIENT_BALANCE"));
        TestApi.fund(test, 1_000);
        create(test, 1_000).then().statusCode(409).body("error.code", equalTo("INSUFFICIENT_BALANCE")); // total 1010
        create(test, 990).then().statusCode(201); // total 1000
        balance(test, 0, 1_000);
        create(test, 1).then().statusCode(409);
        as(test).get("/api/v1/withdrawals").then().statusCode(200).body("data.size()", equalTo(1));
        // live has its own (empty) balance
        create(live, 1).then().statusCode(409).body("error.code", equalTo("INSUFFICIENT_BALANCE"));
    }

    @Test
    void badBodiesAre400() {
        String[][] cases = {
                {"{\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"},\"reference\":\"r\"}", "amount"},
                {"{\"amount\":0,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"},\"reference\":\"r\"}", "amount"},
                {"{\"amount\":1.5,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"},\"reference\":\"r\"}", "amount"},
                {"{\"amount\":10,\"reference\":\"r\"}", "destination"},
                {"{\"amount\":10,\"destination\":{\"type\":\"bank\",\"msisdn\":\"+50937001234\"},\"reference\":\"r\"}", "destination.type"},
                {"{\"amount\":10,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"12ab\"},\"reference\":\"r\"}", "destination.msisdn"},
                {"{\"amount\":10,\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"}}", "reference"},
                {"{\"amount\":10,\"currency\":\"EUR\",\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937001234\"},\"reference\":\"r\"}", "currency"},
        };
        for (String[] c : cases) {
            as(test).header("Idempotency-Key", TestApi.newKey()).body(c[0]).post("/api/v1/withdrawals").then().statusCode(400)
                    .body("error.param", equalTo(c[1]));
        }
        String noWrite = TestApi.key(project, "test", "withdrawals:read");
        create(noWrite, 10).then().statusCode(403).body("error.code", equalTo("PERMISSION_DENIED"));
        String noBalance = TestApi.key(project, "test", "payments:read");
        as(noBalance).get("/api/v1/balance").then().statusCode(403);
        as(noBalance).get("/api/v1/withdrawals").then().statusCode(403);
    }

    @Test
    void theStatusGraphReleasesOrConsumesTheReservation() {
        TestApi.fund(test, 10_000);
        String completed = create(test, 1000).then().statusCode(201).extract().path("id"); // total 1010
        as(test).post("/api/v1/test_helpers/withdrawals/" + completed + "/complete").then().statusCode(409)
                .body("error.code", equalTo("INVALID_WITHDRAWAL_STATE"));
        as(test).post("/api/v1/test_helpers/withdrawals/" + completed + "/process").then().statusCode(200)
                .body("status", equalTo("processing"));
        as(test).post("/api/v1/withdrawals/" + completed + "/cancel").then().statusCode(409)
                .body("error.code", equalTo("WITHDRAWAL_NOT_CANCELLABLE"));
        as(test).post("/api/v1/test_helpers/withdrawals/" + completed + "/complete").then().statusCode(200)
                .body("status", equalTo("completed")).body("completed_at", notNullValue());
        balance(test, 8_990, 0);

        String failed = create(test, 1000).then().extract().path("id");
        as(test).post("/api/v1/test_helpers/withdrawals/" + failed + "/process").then().statusCode(200);
        balance(test, 7_980, 1_010);
        as(test).post("/api/v1/test_helpers/withdrawals/" + failed + "/fail").then().statusCode(200)
                .body("status", equalTo("failed")).body("failure_reason", notNullValue());
        balance(test, 8_990, 0);

        String rejected = create(test, 1000).then().extract().path("id");
        as(test).post("/api/v1/test_helpers/withdrawals/" + rejected + "/reject").then().statusCode(200)
                .body("status", equalTo("rejected"));
        balance(test, 8_990, 0);
        as(test).post("/api/v1/test_helpers/withdrawals/" + rejected + "/process").then().statusCode(409);

        String cancelled = create(test, 1000).then().extract().path("id");
        as(test).post("/api/v1/withdrawals/" + cancelled + "/cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        as(test).post("/api/v1/withdrawals/" + cancelled + "/cancel").then().statusCode(409);
        balance(test, 8_990, 0);

        as(test).post("/api/v1/test_helpers/withdrawals/" + cancelled + "/teleport").then().statusCode(404);
        as(live).post("/api/v1/test_helpers/withdrawals/" + cancelled + "/process").then().statusCode(403);
        as(live).post("/api/v1/withdrawals/" + cancelled + "/cancel").then().statusCode(404);

        var list = as(test).get("/api/v1/withdrawals?limit=3").then().statusCode(200).body("has_more", equalTo(true)).extract();
        assertEquals(List.of(cancelled, rejected, failed), list.path("data.id"));
        var rest = as(test).get("/api/v1/withdrawals?limit=3&starting_after=" + failed).then().statusCode(200)
                .body("has_more", equalTo(false)).extract();
        assertEquals(List.of(completed), rest.path("data.id"));
    }

    @Test
    void concurrentDuplicatesOfOneKeyCreateOneWithdrawal() throws Exception {
        TestApi.fund(test, 10_000);
        String key = TestApi.newKey();
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Callable<Response>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(() -> as(test).header("Idempotency-Key", key).body(body(500)).post("/api/v1/withdrawals"));
            }
            List<String> ids = new ArrayList<>();
            for (Future<Response> f : pool.invokeAll(calls)) {
                Response r = f.get();
                if (r.statusCode() == 201) {
                    ids.add(r.path("id"));
                } else {
                    assertEquals(409, r.statusCode(), r.asString());
                    assertEquals("IDEMPOTENCY_KEY_IN_USE", r.path("error.code"));
                }
            }
            assertTrue(!ids.isEmpty());
            assertEquals(1, ids.stream().distinct().count(), "one withdrawal for one key: " + ids);
            balance(test, 10_000 - 505, 505);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentWithdrawalsNeverOverdrawTheBalance() throws Exception {
        TestApi.fund(test, 20_000);
        int requests = 60;
        // each: amount 1000, fee 10, total 1010 -> 19 fit in 20 000 (19 190), the 20th does not
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        try {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                calls.add(() -> create(test, 1000).statusCode());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(calls)) {
                statuses.add(f.get());
            }
            long created = statuses.stream().filter(s -> s == 201).count();
            long refused = statuses.stream().filter(s -> s == 409).count();
            assertEquals(requests, created + refused, "only 201 or 409: " + statuses);
            assertEquals(19, created);
            balance(test, 20_000 - 19 * 1010, 19 * 1010);
            as(test).get("/api/v1/withdrawals?limit=100").then().body("data.size()", equalTo(19));
        } finally {
            pool.shutdownNow();
        }
    }
}
