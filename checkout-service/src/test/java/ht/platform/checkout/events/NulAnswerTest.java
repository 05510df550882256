package ht.platform.checkout.events;

import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Deliveries;
import ht.platform.checkout.TestApi;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A receiver that answers with a NUL byte (Postgres text cannot keep it): the attempt is still recorded, once. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class NulAnswerTest {

    @Inject
    MovableClock clock;

    JsonPath delivered(String name, int status) throws Exception {
        String key = TestApi.key(TestApi.application(name), "test", null);
        try (Receiver receiver = new Receiver()) {
            receiver.answerWithNul(status);
            as(key).body(Map.of("url", receiver.url("/hooks"), "events", List.of("payment_intent.created")))
                    .post("/api/v1/webhook_endpoints").then().statusCode(201);
            TestApi.createIntent(key, "7");
            String eventId = as(key).queryParam("type", "payment_intent.created").get("/api/v1/events").then().statusCode(200)
                    .extract().path("data[0].id");
            WebhookDeliveryTest.await(() -> as(key).get("/api/v1/events/" + eventId).then().extract()
                    .jsonPath().getList("deliveries[0].attempts").size() == 1, "the attempt recorded");
            clock.advance(Duration.ofSeconds(30)); // beyond the lease: an unrecorded delivery would go out again
            Deliveries.drainUntilIdle();
            assertEquals(1, receiver.received.size(), "sent once");
            return as(key).get("/api/v1/events/" + eventId).then().statusCode(200).extract().jsonPath();
        }
    }

    @Test
    void aTwoHundredWithANulIsRecordedAsDelivered() throws Exception {
        JsonPath event = delivered("Nul 200", 200);
        assertEquals("succeeded", event.getString("deliveries[0].status"));
        String excerpt = event.getString("deliveries[0].attempts[0].response_excerpt");
        assertTrue(excerpt.startsWith("ok") && excerpt.endsWith("binary") && !excerpt.contains("\u0000"), excerpt);
    }

    @Test
    void aFiveHundredWithANulIsAFailedAttemptThatCounts() throws Exception {
        JsonPath event = delivered("Nul 500", 500);
        assertEquals("pending", event.getString("deliveries[0].status"));
        assertEquals(1, event.getInt("deliveries[0].failed_attempts"));
        assertEquals(500, event.getInt("deliveries[0].attempts[0].status_code"));
        assertFalse(event.getString("deliveries[0].attempts[0].response_excerpt").contains("\u0000"));
    }
}
