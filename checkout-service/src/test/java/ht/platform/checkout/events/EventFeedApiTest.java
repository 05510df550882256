package ht.platform.checkout.events;

import com.stripe.net.Webhook;
import ht.platform.checkout.TestApi;
import ht.platform.support.feed.FeedWaiters;
import ht.platform.support.testing.FeedReader;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.restassured.path.json.JsonPath;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.*;

/** The event feed as a merchant meets it: a pull endpoint, GET /api/v1/events?after=, held reads, retention. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class EventFeedApiTest {

    @Inject
    MovableClock clock;

    @Inject
    FeedWaiters feedReads;


    @Test
    void aPullEndpointKeepsItsEventsOnTheFeedSignedAndInCommitOrder() throws Exception {
        String key = TestApi.key(TestApi.application("Feed " + System.nanoTime()), "test", null);
        as(key).body(Map.of("delivery", "pull", "url", "https://example.com/hooks")).post("/api/v1/webhook_endpoints")
                .then().statusCode(400).body("error.param", equalTo("url"));
        as(key).body(Map.of("delivery", "sometimes")).post("/api/v1/webhook_endpoints")
                .then().statusCode(400).body("error.param", equalTo("delivery"));
        as(key).body(Map.of("events", List.of("payment_intent.created"))).post("/api/v1/webhook_endpoints")
                .then().statusCode(400).body("error.param", equalTo("url"));
        as(key).get("/api/v1/events?after=start").then().statusCode(409).body("error.code", equalTo("NO_PULL_ADDRESS"));

        var created = as(key).body(Map.of("delivery", "pull")).post("/api/v1/webhook_endpoints").then().statusCode(201)
                .body("delivery", equalTo("pull")).body("url", nullValue()).body("secret", startsWith("whsec_")).extract();
        String secret = created.path("secret");
        String endpoint = created.path("id");

        String intent = TestApi.createIntent(key, "120");
        TestApi.simulate(key, intent, "succeeded").statusCode(200);

        FeedReader.Read read = FeedReader.follow(path -> as(key).get(path).then().statusCode(200)
                        .body("object", equalTo("list")).body("address", equalTo(endpoint)).extract().jsonPath(),
                "start", "&limit=2&wait=2", r -> r.size() >= 3, Duration.ofSeconds(10));
        List<Map<String, Object>> events = read.events();
        String cursor = read.cursor();
        assertEquals(List.of("payment_intent.created", "payment_intent.processing", "payment_intent.succeeded"),
                events.stream().map(e -> (String) e.get("type")).toList());
        FeedReader.assertSigned(events, new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret)), (headers, e) -> {
            assertEquals(e.get("id"), headers.get("Checkout-Event-Id"));
            assertDoesNotThrow(() -> Webhook.Signature.verifyHeader((String) e.get("body"),
                    "t=" + headers.get("Checkout-Timestamp") + ",v1=" + headers.get("Checkout-Signature"), secret, 300));
        });
        // pulled, never pushed: the event has no delivery to the pull endpoint
        as(key).get("/api/v1/events/" + events.get(0).get("id")).then().statusCode(200).body("deliveries.size()", equalTo(0));
        // the list without after is still the newest-first list
        as(key).get("/api/v1/events?limit=1").then().statusCode(200).body("data[0].type", equalTo("payment_intent.succeeded"));

        // a held read answers when the next event commits
        String from = cursor;
        int heldBefore = feedReads.held();
        CompletableFuture<JsonPath> held = CompletableFuture.supplyAsync(() -> as(key)
                .get("/api/v1/events?after=" + from + "&wait=20").then().statusCode(200).extract().jsonPath());
        Waiting.until("the read held", () -> feedReads.held() > heldBefore);
        long start = System.nanoTime();
        TestApi.createIntent(key, "7");
        JsonPath woken = held.get(15, TimeUnit.SECONDS);
        assertEquals("payment_intent.created", woken.getString("data[0].type"));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5000);

        // nothing new: the wait ends with no events and the same place to resume
        String next = woken.getString("next_cursor");
        as(key).get("/api/v1/events?after=" + next + "&wait=1").then().statusCode(200)
                .body("data.size()", equalTo(0)).body("next_cursor", equalTo(next));

        // past the retention the cursor is gone, and the answer says where the feed now starts
        clock.advance(Duration.ofDays(31));
        TestApi.createIntent(key, "8");
        String old = (String) events.get(0).get("cursor");
        String oldest = as(key).get("/api/v1/events?after=" + old).then().statusCode(410)
                .body("error.code", equalTo("CURSOR_EXPIRED")).body("error.param", equalTo("after"))
                .body("error.oldest_cursor", startsWith("cur_")).extract().path("error.oldest_cursor");
        as(key).get("/api/v1/events?after=" + oldest + "&wait=5").then().statusCode(200)
                .body("data[0].type", equalTo("payment_intent.created"));
    }

    @Test
    void theFeedAsksForTheWebhookPermissionAndNamesWrongParameters() {
        String app = TestApi.application("Feed scope " + System.nanoTime());
        String key = TestApi.key(app, "test", null);
        as(key).body(Map.of("delivery", "pull")).post("/api/v1/webhook_endpoints").then().statusCode(201);
        as(TestApi.key(app, "test", List.of("payment_intents:read"))).get("/api/v1/events?after=start").then().statusCode(403);
        as(key).get("/api/v1/events?after=cur_nonsense").then().statusCode(400).body("error.param", equalTo("after"));
        as(key).get("/api/v1/events?after=start&wait=31").then().statusCode(400).body("error.param", equalTo("wait"));
        as(key).get("/api/v1/events?after=start&limit=0").then().statusCode(400).body("error.param", equalTo("limit"));
        as(key).get("/api/v1/events?after=start&types=nothing.happened").then().statusCode(400).body("error.param", equalTo("types"));
        as(key).get("/api/v1/events?after=start&address=pay_we_unknown").then().statusCode(400).body("error.param", equalTo("address"));
        as(key).get("/api/v1/events?after=latest").then().statusCode(200).body("data.size()", equalTo(0))
                .body("next_cursor", startsWith("cur_"));
    }
}
