package ht.platform.wallet.rest;

import ht.platform.support.testing.LogCapture;
import ht.platform.support.testing.Waiting;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run's log carries the request id, tenant and mode of every API request line, and none of the secrets it used. */
@QuarkusTest
class LogPrivacyTest {

    @Test
    void theLogNamesTenantAndModeButNeverAKeyASecretOrAToken() throws Exception {
        try (LogCapture log = LogCapture.start()) {
            String project = TestApi.project("Log privacy");
            String key = TestApi.key(project, "test");
            String secret = as(key).body(Map.of("url", "http://127.0.0.1:9/hooks", "events", List.of("payment.succeeded")))
                    .post("/api/v1/webhooks").then().statusCode(201).extract().path("secret");
            String payment = TestApi.payment(key, 700);
            String requestId = as(key).get("/api/v1/payments/" + payment).then().statusCode(200).extract().header("X-Gateway-Request-Id");
            as("gw_test_" + "x".repeat(40)).get("/api/v1/payments/" + payment).then().statusCode(401);

            // the access log is asynchronous: its line is asserted next, with the lines there were
            Waiting.reached(Duration.ofSeconds(20),
                    () -> log.lines().stream().anyMatch(l -> l.contains("GET /api/v1/payments/" + payment) && l.contains(requestId)));
            List<String> lines = log.lines();
            String requestLine = lines.stream().filter(l -> l.contains("GET /api/v1/payments/" + payment) && l.contains(requestId))
                    .findFirst().orElseThrow(() -> new AssertionError("no access-log line for the read in " + lines));
            assertTrue(requestLine.contains("tenant=" + project), requestLine);
            assertTrue(requestLine.contains("mode=test"), requestLine);
            assertTrue(requestLine.contains("requestId=" + requestId), requestLine);
            for (String forbidden : List.of(key, secret, "test-admin-token", "x".repeat(40))) {
                for (String line : lines) {
                    assertFalse(line.contains(forbidden), "the log carries a secret: " + line);
                }
            }
        }
    }
}
