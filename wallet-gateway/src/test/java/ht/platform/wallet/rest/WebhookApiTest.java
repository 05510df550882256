package ht.platform.wallet.rest;

import ht.platform.support.testing.TestDatabase;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

@QuarkusTest
class WebhookApiTest {

    String project;
    String test;

    @BeforeEach
    void setUp() {
        project = TestApi.project("Webhook API shop");
        test = TestApi.key(project, "test");
    }

    JsonPath register(String key, String url, List<String> events, int status) {
        return as(key).body(Map.of("url", url, "events", events)).post("/api/v1/webhooks")
                .then().statusCode(status).extract().jsonPath();
    }

    @Test
    void registrationShowsTheSecretOnceAndStoresItEncrypted() throws Exception {
        JsonPath created = as(test).body(Map.of("url", "https://hooks.example.com/wallet", "events", List.of("payment.succeeded", "payment.succeeded", "withdrawal.completed")))
                .post("/api/v1/webhooks").then().statusCode(201)
                .body("id", matchesPattern("we_[0-9a-f]{24}")).body("url", equalTo("https://hooks.example.com/wallet"))
                .body("events", equalTo(List.of("payment.succeeded", "withdrawal.completed")))
                .body("status", equalTo("active")).body("secret", matchesPattern("whsec_[0-9a-f]{64}"))
                .body("created_at", notNullValue()).extract().jsonPath();
        String id = created.getString("id");
        String secret = created.getString("secret");
        as(test).get("/api/v1/webhooks").then().statusCode(200).body("object", equalTo("list"))
                .body("data.size()", equalTo(1)).body("data[0].id", equalTo(id)).body("data[0].status", equalTo("active"))
                .body("data[0].consecutive_failures", equalTo(0)).body("data[0].paused_at", equalTo(null))
                .body(not(containsString("whsec_")));
        as(test).get("/api/v1/webhooks/" + id).then().statusCode(200).body(not(containsString("whsec_")));
        try (Connection c = TestDatabase.connect();
             PreparedStatement s = c.prepareStatement("SELECT secret_sealed FROM wallet.webhook_endpoints WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                String stored = rs.getString(1);
                assertNotNull(stored);
                assertFalse(stored.contains(secret.substring(6)), "the secret is not stored in clear");
                assertFalse(stored.contains("whsec_"));
            }
        }
        JsonPath rotated = as(test).post("/api/v1/webhooks/" + id + "/rotate_secret").then().statusCode(200)
                .body("secret", matchesPattern("whsec_[0-9a-f]{64}")).extract().jsonPath();
        assertFalse(rotated.getString("secret").equals(secret));
        as(test).post("/api/v1/webhooks/we_nope/rotate_secret").then().statusCode(404);
    }

    @Test
    void urlsThatAreNotAllowedAre400() {
        for (String url : List.of("ftp://hooks.example.com/x", "not a url", "https://user:pw@hooks.example.com/x",
                "/relative/path", "https://hooks.example.com/x#frag", "")) {
            register(test, url, List.of("payment.created"), 400).getString("error.code");
            as(test).body(Map.of("url", url, "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(400).body("error.code", equalTo(url.isEmpty() ? "INVALID_REQUEST" : "URL_NOT_ALLOWED"))
                    .body("error.param", equalTo("url"));
        }
        as(test).body("{\"events\":[\"payment.created\"]}").post("/api/v1/webhooks").then().statusCode(400)
                .body("error.param", equalTo("url"));
    }

    @Test
    void eventKindsAreValidated() {
        for (List<String> events : List.of(List.<String>of(), List.of("payment.refunded"), List.of("webhook.ping"),
                List.of("payment.created", "PAYMENT.CREATED"))) {
            as(test).body(Map.of("url", "https://hooks.example.com/x", "events", events)).post("/api/v1/webhooks")
                    .then().statusCode(400).body("error.param", equalTo("events"));
        }
        as(test).body("{\"url\":\"https://hooks.example.com/x\"}").post("/api/v1/webhooks").then().statusCode(400)
                .body("error.param", equalTo("events"));
        as(test).body("{\"url\":\"https://hooks.example.com/x\",\"events\":\"payment.created\"}").post("/api/v1/webhooks")
                .then().statusCode(400);
        as(test).body("{\"url\":\"https://hooks.example.com/x\",\"events\":[\"payment.created\"],\"secret\":\"mine\"}")
                .post("/api/v1/webhooks").then().statusCode(400).body("error.param", equalTo("secret"));
    }

    @Test
    void atMostThreeAddressesPerProjectAndMode() {
        String first = null;
        for (int i = 0; i < 3; i++) {
            String id = register(test, "https://hooks.example.com/" + i, List.of("payment.created"), 201).getString("id");
            first = first == null ? id : first;
        }
        as(test).body(Map.of("url", "https://hooks.example.com/4", "events", List.of("payment.created")))
                .post("/api/v1/webhooks").then().statusCode(409).body("error.code", equalTo("WEBHOOK_LIMIT_REACHED"));
        // the live mode of the same project has its own addresses and does not see the test ones
        String live = TestApi.key(project, "live");
        as(live).get("/api/v1/webhooks").then().statusCode(200).body("data.size()", equalTo(0));
        as(live).get("/api/v1/webhooks/" + first).then().statusCode(404);
        as(live).delete("/api/v1/webhooks/" + first).then().statusCode(404);
        as(test).delete("/api/v1/webhooks/" + first).then().statusCode(204);
        as(test).delete("/api/v1/webhooks/" + first).then().statusCode(404);
        register(test, "https://hooks.example.com/5", List.of("payment.created"), 201);
        assertEquals(3, as(test).get("/api/v1/webhooks").then().extract().jsonPath().getList("data").size());
    }

    @Test
    void concurrentRegistrationsRespectTheLimit() throws Exception {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(10);
        try {
            List<java.util.concurrent.Callable<Integer>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = i;
                calls.add(() -> as(test).body(Map.of("url", "https://hooks.example.com/c" + n, "events", List.of("payment.created")))
                        .post("/api/v1/webhooks").statusCode());
            }
            List<Integer> statuses = new java.util.ArrayList<>();
            for (var f : pool.invokeAll(calls)) {
                statuses.add(f.get());
            }
            assertEquals(3, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
            assertEquals(7, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void permissionsAreEnforced() {
        String readOnly = TestApi.key(project, "test", "webhooks:read");
        String writeOnly = TestApi.key(project, "test", "webhooks:write");
        String none = TestApi.key(project, "test", "payments:read");
        as(readOnly).body(Map.of("url", "https://hooks.example.com/x", "events", List.of("payment.created")))
                .post("/api/v1/webhooks").then().statusCode(403).body("error.code", equalTo("PERMISSION_DENIED"));
        String id = register(writeOnly, "https://hooks.example.com/x", List.of("payment.created"), 201).getString("id");
        as(writeOnly).get("/api/v1/webhooks").then().statusCode(403).body("error.code", equalTo("PERMISSION_DENIED"));
        as(readOnly).get("/api/v1/webhooks").then().statusCode(200).body("data[0].id", equalTo(id));
        as(none).get("/api/v1/webhooks").then().statusCode(403);
        as(readOnly).delete("/api/v1/webhooks/" + id).then().statusCode(403);
        as(readOnly).post("/api/v1/webhooks/" + id + "/rotate_secret").then().statusCode(403);
        as(readOnly).post("/api/v1/webhooks/" + id + "/reactivate").then().statusCode(403);
        as(readOnly).post("/api/v1/webhook_deliveries/whd_x/resend").then().statusCode(403);
        io.restassured.RestAssured.given().get("/api/v1/webhooks").then().statusCode(401);
        as(test).post("/api/v1/webhooks/" + id + "/reactivate").then().statusCode(409).body("error.code", equalTo("WEBHOOK_NOT_PAUSED"));
        as(test).post("/api/v1/webhooks/we_missing/reactivate").then().statusCode(404);
    }

    @Test
    void everyOperationIsInTheOpenApiDocument() {
        String doc = io.restassured.RestAssured.given().get("/openapi.json").then().statusCode(200).extract().asString();
        for (String path : List.of("/api/v1/payments", "/api/v1/payments/{id}", "/api/v1/withdrawals", "/api/v1/withdrawals/{id}/cancel",
                "/api/v1/balance", "/api/v1/webhooks", "/api/v1/webhooks/{id}", "/api/v1/webhooks/{id}/reactivate",
                "/api/v1/webhooks/{id}/rotate_secret", "/api/v1/webhooks/{id}/test", "/api/v1/webhooks/{id}/deliveries",
                "/api/v1/webhook_deliveries/{id}/resend", "/api/v1/test_helpers/payments/{id}/{action}",
                "/api/v1/test_helpers/withdrawals/{id}/{action}")) {
            org.junit.jupiter.api.Assertions.assertTrue(doc.contains("\"" + path + "\""), path);
        }
    }
}
