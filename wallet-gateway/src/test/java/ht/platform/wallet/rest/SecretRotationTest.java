package ht.platform.wallet.rest;

import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Issue 14 item 10: a second rotation while the first one's 24 h overlap lasts is refused, never drops a young secret. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class SecretRotationTest {

    @Inject
    MovableClock clock;


    @Test
    void aSecondRotationWaitsForTheOverlapToEnd() {
        String key = TestApi.key(TestApi.project("Rotation shop"), "test");
        String id = as(key).body(Map.of("url", "https://hooks.example.com/rotation", "events", List.of("payment.created")))
                .post("/api/v1/webhooks").then().statusCode(201).extract().path("id");
        JsonPath first = as(key).post("/api/v1/webhooks/" + id + "/rotate_secret").then().statusCode(200).extract().jsonPath();
        String overlapEnd = first.getString("previous_secret_expires_at");

        clock.advance(Duration.ofHours(23).plusMinutes(59));
        as(key).post("/api/v1/webhooks/" + id + "/rotate_secret").then().statusCode(409)
                .body("error.code", equalTo("ROTATION_IN_PROGRESS")).body("error.message", containsString(overlapEnd))
                .body("error.request_id", notNullValue());

        clock.advance(Duration.ofMinutes(2));
        String second = as(key).post("/api/v1/webhooks/" + id + "/rotate_secret").then().statusCode(200).extract().path("secret");
        assertNotEquals(first.getString("secret"), second);
    }
}
