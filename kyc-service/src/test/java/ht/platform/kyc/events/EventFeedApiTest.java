package ht.platform.kyc.events;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.EventCatalogContract;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static ht.platform.kyc.Fixtures.as;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.*;

/** The feed of an application's mode: with no address URL set, its events wait on the feed, signed with the mode's secret. */
@QuarkusTest
class EventFeedApiTest {

    @Test
    void anApplicationWithoutAnAddressReadsItsTestEventsFromTheFeedSignedWithTheTestSecret() throws Exception {
        Fixtures.App app = Fixtures.app(null, null);
        String id = Fixtures.create(app.testKey(), "feed-user-" + System.nanoTime());
        Fixtures.complete(app.testKey(), id, "verified");

        List<Map<String, Object>> events = new ArrayList<>();
        String cursor = "start";
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.stream().noneMatch(e -> "verification.verified".equals(e.get("type"))) && System.nanoTime() < until) {
            JsonPath page = as(app.testKey()).get("/api/v1/events?after=" + cursor + "&wait=2").then().statusCode(200)
                    .body("address", equalTo(app.id() + "/test")).extract().jsonPath();
            events.addAll(page.getList("data"));
            cursor = page.getString("next_cursor");
        }
        assertFalse(events.isEmpty());
        assertEquals("verification.verified", events.get(events.size() - 1).get("type"));
        WebhookVerifier test = new WebhookVerifier(SignatureScheme.KYC, List.of(app.testWebhookSecret()));
        WebhookVerifier live = new WebhookVerifier(SignatureScheme.KYC, List.of(app.webhookSecret()));
        for (Map<String, Object> e : events) {
            @SuppressWarnings("unchecked") Map<String, String> headers = (Map<String, String>) e.get("headers");
            byte[] body = ((String) e.get("body")).getBytes(StandardCharsets.UTF_8);
            assertTrue(test.verify(headers, body).valid(), "test secret signs " + e.get("id"));
            assertFalse(live.verify(headers, body).valid(), "never the live secret");
            assertTrue(((String) e.get("body")).contains(id));
            EventCatalogContract.assertMatchesSchema(body);
        }
        // the live mode's feed is another feed
        as(app.liveKey()).get("/api/v1/events?after=start").then().statusCode(200).body("data.size()", equalTo(0))
                .body("address", equalTo(app.id()));
        as(app.testKey()).get("/api/v1/events?after=start&address=" + app.id()).then().statusCode(400).body("error.param", equalTo("address"));
    }
}
