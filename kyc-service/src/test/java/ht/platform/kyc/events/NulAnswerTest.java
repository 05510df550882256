package ht.platform.kyc.events;

import ht.platform.support.testing.Deliveries;
import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import ht.platform.support.testing.TestDatabase;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A receiver that answers with a NUL byte (Postgres text cannot keep it): the attempt is still recorded, once. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class NulAnswerTest {

    @Inject
    MovableClock clock;

    Map<String, Object> delivered(int status) throws Exception {
        try (Receiver receiver = new Receiver()) {
            receiver.answerWithNul(status);
            Fixtures.App app = Fixtures.app(receiver.url());
            String id = Fixtures.create(app.testKey(), "nul-" + status);
            receiver.await(h -> h.text().contains(id));
            Map<String, Object> row = Waiting.until("the attempt recorded",
                    () -> given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app.id() + "/deliveries")
                            .then().statusCode(200).extract().<Map<String, Object>>path("data[0]"),
                    r -> r != null && ((Number) r.get("attempts")).intValue() >= 1);
            clock.advance(Duration.ofSeconds(30)); // beyond the lease: an unrecorded delivery would go out again
            Deliveries.drainUntilIdle();
            assertEquals(1, receiver.received.size(), "sent once");
            row = given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app.id() + "/deliveries")
                    .then().statusCode(200).extract().path("data[0]");
            row.put("excerpt", excerpt((String) row.get("id")));
            return row;
        }
    }

    static String excerpt(String delivery) throws Exception {
        try (Connection c = TestDatabase.connect();
             PreparedStatement s = c.prepareStatement("SELECT response_excerpt FROM kyc.outbox_attempts WHERE delivery_id = ?")) {
            s.setString(1, delivery);
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next(), "an attempt row");
                return rs.getString(1);
            }
        }
    }

    @Test
    void aTwoHundredWithANulIsRecordedAsDelivered() throws Exception {
        Map<String, Object> d = delivered(200);
        assertEquals("delivered", d.get("status"));
        assertEquals(1, d.get("attempts"));
        String excerpt = (String) d.get("excerpt");
        assertTrue(excerpt.startsWith("ok") && excerpt.endsWith("binary") && !excerpt.contains("\u0000"), excerpt);
    }

    @Test
    void aFiveHundredWithANulIsAFailedAttemptThatCounts() throws Exception {
        Map<String, Object> d = delivered(500);
        assertEquals("pending", d.get("status"));
        assertEquals(1, d.get("attempts"));
        assertEquals(500, d.get("last_status"));
        assertFalse(((String) d.get("excerpt")).contains("\u0000"));
    }
}
