package ht.platform.kyc.events;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.FeedReader;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.kyc.Fixtures.as;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.*;

/** The feed of an application's mode: with no address URL set, its events wait on the feed, signed with the mode's feed secret. */
@QuarkusTest
class EventFeedApiTest {

    @Test
    void anApplicationWithoutAnAddressReadsItsTestEventsFromTheFeedSignedWithTheTestFeedSecret() throws Exception {
        Fixtures.App app = Fixtures.app(null, null);
        String id = Fixtures.create(app.testKey(), "feed-user-" + System.nanoTime());
        Fixtures.complete(app.testKey(), id, "verified");

        List<Map<String, Object>> events = FeedReader.follow(path -> as(app.testKey()).get(path).then().statusCode(200)
                        .body("address", equalTo(app.id() + "/test")).extract().jsonPath(), "start", "&wait=2",
                read -> read.stream().anyMatch(e -> "verification.verified".equals(e.get("type"))), Duration.ofSeconds(10))
                .events();
        assertFalse(events.isEmpty());
        assertEquals("verification.verified", events.get(events.size() - 1).get("type"));
        WebhookVerifier live = new WebhookVerifier(SignatureScheme.KYC, List.of(app.webhookSecret()));
        WebhookVerifier push = new WebhookVerifier(SignatureScheme.KYC, List.of(app.testWebhookSecret()));
        FeedReader.assertSigned(events, new WebhookVerifier(SignatureScheme.KYC, List.of(app.testFeedSecret())),
                (headers, e) -> {
                    byte[] body = ((String) e.get("body")).getBytes(StandardCharsets.UTF_8);
                    assertFalse(live.verify(headers, body).valid(), "never the live secret");
                    assertFalse(push.verify(headers, body).valid(), "never the push secret");
                    assertTrue(((String) e.get("body")).contains(id));
                });
        // the live mode's feed is another feed
        as(app.liveKey()).get("/api/v1/events?after=start").then().statusCode(200).body("data.size()", equalTo(0))
                .body("address", equalTo(app.id()));
        as(app.testKey()).get("/api/v1/events?after=start&address=" + app.id()).then().statusCode(400).body("error.param", equalTo("address"));
    }

    @Test
    void aModeWhoseEventsArePushedHasNoFeedSoNoReaderGetsItsSecretsSignature() {
        Fixtures.App app = Fixtures.app("https://bank.example/kyc/hooks", null);
        String reader = io.restassured.RestAssured.given().header("Authorization", Fixtures.ADMIN)
                .contentType(io.restassured.http.ContentType.JSON).body("{\"mode\":\"live\",\"scopes\":[\"verifications:read\"]}")
                .post("/admin/v1/applications/" + app.id() + "/keys").then().statusCode(201).extract().path("key");
        as(reader).get("/api/v1/events?after=start").then().statusCode(409).body("error.code", equalTo("NO_PULL_ADDRESS"));
        as(reader).get("/api/v1/events?after=start&address=" + app.id()).then().statusCode(400)
                .body("error.param", equalTo("address")).body("error.message", containsString("pushed"));
        // the test mode has no URL: its own feed, signed with the test secret only (checked above)
        as(app.testKey()).get("/api/v1/events?after=start").then().statusCode(200).body("address", equalTo(app.id() + "/test"));
    }
}
