package ht.platform.wallet.events;

import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Deliveries;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The production setting (private targets not allowed): local and internal URLs are refused at registration,
 * and a public-looking name that resolves to a private address is refused at send time (the test hosts file
 * maps hooks.merchant-example.com to 127.0.0.1).
 */
@QuarkusTest
@TestProfile(PrivateTargetsTest.Strict.class)
class PrivateTargetsTest {

    public static class Strict implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the 1 s scheduler fallback is off here: only LISTEN/NOTIFY can wake the delivery loop
            return Map.of("webhooks.allow-private-targets", "false", "wallet.webhooks.tick", "off");
        }
    }

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryPolicy store;

    @Test
    void localAndInternalUrlsAreRefusedAtRegistration() {
        String key = TestApi.key(TestApi.project("Strict"), "test");
        for (String url : List.of("http://hooks.example.com/x", "https://127.0.0.1/x", "https://localhost/x",
                "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[::1]/x", "https://192.168.1.10/x",
                "https://100.64.0.1/x", "https://wallet.internal/x", "https://intranet/x")) {
            as(key).body(Map.of("url", url, "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(400).body("error.code", equalTo("URL_NOT_ALLOWED")).body("error.param", equalTo("url"));
        }
    }

    @Test
    void notifyAfterCommitWakesTheLoopWithoutTheScheduler() throws Exception {
        try (Receiver rx = new Receiver()) {
            String key = TestApi.key(TestApi.project("Notify"), "test");
            String url = "https://hooks.merchant-example.com:" + rx.port() + "/notify";
            String id = as(key).body(Map.of("url", url, "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(201).extract().path("id");
            TestApi.payment(key, 10);
            // nobody calls drain and the tick is off: the attempt (refused, private address) comes from the wake-up
            Receiver.await("attempt woken by NOTIFY", Duration.ofSeconds(10), () -> !as(key)
                    .get("/api/v1/webhooks/" + id + "/deliveries").then().extract().jsonPath().getList("data[0].attempts").isEmpty());
        }
    }

    @Test
    void aNameResolvingToAPrivateAddressIsRefusedAtSendTime() throws Exception {
        try (Receiver rx = new Receiver()) {
            String key = TestApi.key(TestApi.project("Rebinding"), "test");
            String url = "https://hooks.merchant-example.com:" + rx.port() + "/hooks";
            String id = as(key).body(Map.of("url", url, "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(201).extract().path("id");
            TestApi.payment(key, 10);
            Receiver.await("refused attempt", Duration.ofSeconds(15), () -> {
                Deliveries.drainUntilIdle(runner, store);
                return !as(key).get("/api/v1/webhooks/" + id + "/deliveries").then().extract().jsonPath()
                        .getList("data[0].attempts").isEmpty();
            });
            JsonPath d = as(key).get("/api/v1/webhooks/" + id + "/deliveries").then().statusCode(200).extract().jsonPath();
            assertFalse(d.getBoolean("data[0].attempts[0].success"));
            assertNull(d.get("data[0].attempts[0].status_code"));
            String error = d.getString("data[0].attempts[0].error");
            assertTrue(error.contains("resolves to a private address") && error.contains("refused"), error);
            assertFalse(error.contains("127.0.0.1"), "the internal address is never shown: " + error);
            assertEquals("pending", d.getString("data[0].status"), "a refused attempt is a failure and is retried later");
            assertEquals(0, rx.received.size(), "no connection was made to the private address");
        }
    }
}
