package ht.platform.wallet.rest;

import ht.platform.support.testing.Deliveries;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.support.testing.Receiver;
import ht.platform.wallet.events.WalletDeliveryPolicy;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** POST /api/v1/webhooks/{id}/recover: the failed and abandoned deliveries of a window go out again, once. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class RecoverWindowApiTest {

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryPolicy store;


    String status(String key, String delivery) {
        return as(key).get("/api/v1/webhook_deliveries/" + delivery).then().statusCode(200).extract().path("status");
    }

    @Test
    void aWindowIsRecoveredOnceAndOnlyItsOwnDeliveries() throws Exception {
        String key = TestApi.key(TestApi.project("Recover"), "test");
        try (Receiver rx = new Receiver()) {
            rx.status.set(500);
            String webhook = as(key).body(Map.of("url", rx.url(), "events", List.of("payment.created")))
                    .post("/api/v1/webhooks").then().statusCode(201).extract().path("id");
            Instant start = clock.instant();
            TestApi.payment(key, 100);
            Receiver.await("first", Duration.ofSeconds(15), () -> rx.received.size() == 1);
            clock.advance(Duration.ofHours(2));
            TestApi.payment(key, 200);
            Receiver.await("second", Duration.ofSeconds(15), () -> rx.received.stream()
                    .map(r -> r.header("X-Gateway-Event-ID")).distinct().count() == 2);
            List<String> ids = as(key).get("/api/v1/webhooks/" + webhook + "/deliveries").then().extract().path("data.id");
            String inside = ids.get(1);
            String outside = ids.get(0);
            // each drain sends every due retry once; seven failures abandon a delivery
            for (int i = 0; i < 9; i++) {
                clock.advance(Duration.ofHours(25));
                Deliveries.drainUntilIdle(runner, store);
            }
            Receiver.await("abandoned", Duration.ofSeconds(15), () -> "abandoned".equals(status(key, inside))
                    && "abandoned".equals(status(key, outside)));
            rx.status.set(200);
            int before = rx.received.size();
            String window = "{\"since\":\"" + start.minusSeconds(1) + "\",\"until\":\"" + start.plus(Duration.ofHours(1)) + "\"}";

            as(key).body(window).post("/api/v1/webhooks/" + webhook + "/recover").then().statusCode(200)
                    .body("object", equalTo("webhook_recovery")).body("resent", equalTo(1)).body("replayed", equalTo(false));
            Receiver.await("recovered", Duration.ofSeconds(15), () -> "delivered".equals(status(key, inside)));
            assertEquals("abandoned", status(key, outside), "outside the window");
            as(key).body(window).post("/api/v1/webhooks/" + webhook + "/recover").then().statusCode(200)
                    .body("resent", equalTo(1)).body("replayed", equalTo(true));
            Deliveries.drainUntilIdle(runner, store);
            assertEquals(before + 1, rx.received.size(), "the same window twice resends nothing twice");

            as(key).body("{\"since\":\"yesterday\",\"until\":\"" + start + "\"}").post("/api/v1/webhooks/" + webhook + "/recover")
                    .then().statusCode(400).body("error.param", equalTo("since"));
            as(key).body("{\"since\":\"" + start + "\"}").post("/api/v1/webhooks/" + webhook + "/recover")
                    .then().statusCode(400).body("error.param", equalTo("until"));
            as(key).body("{\"since\":\"" + start + "\",\"until\":\"" + start.minusSeconds(5) + "\"}")
                    .post("/api/v1/webhooks/" + webhook + "/recover").then().statusCode(400).body("error.param", equalTo("until"));
            String stranger = TestApi.key(TestApi.project("Stranger"), "test");
            as(stranger).body(window).post("/api/v1/webhooks/" + webhook + "/recover").then().statusCode(404);
            String readOnly = TestApi.key(TestApi.project("Reader"), "test", "webhooks:read");
            as(readOnly).body(window).post("/api/v1/webhooks/" + webhook + "/recover").then().statusCode(403);
        }
    }
}
