package ht.platform.kyc.events;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.FeedReader;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Receiver;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.kyc.Fixtures.ADMIN;
import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Each mode's event feed signs with a secret of its own, never with the push secret a receiver trusts; setting or
 * changing a mode's URL draws a new push secret, the one before signing beside it through the overlap.
 */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class FeedSecretTest {

    @Inject
    MovableClock clock;


    @Test
    void theFeedIsSignedWithTheFeedSecretNeverWithThePushSecret() throws Exception {
        Fixtures.App app = Fixtures.app(null, null);
        assertTrue(app.testFeedSecret().startsWith("whsec_") && app.feedSecret().startsWith("whsec_"));
        assertNotEquals(app.testFeedSecret(), app.testWebhookSecret());
        String id = Fixtures.create(app.testKey(), "feed-secret-" + System.nanoTime());
        List<Map<String, Object>> events = FeedReader.follow(path -> as(app.testKey()).get(path).then().statusCode(200)
                .extract().jsonPath(), "start", "&wait=2", read -> read.stream().anyMatch(e -> body(e).contains(id)),
                Duration.ofSeconds(10)).events();
        assertFalse(events.isEmpty());
        WebhookVerifier push = verifier(app.testWebhookSecret());
        FeedReader.assertSigned(events, verifier(app.testFeedSecret()),
                (headers, e) -> assertFalse(push.verify(headers, bytes(e)).valid(), "never the push secret"));
    }

    @Test
    void onceTheUrlIsRemovedTheFeedIsNotSignedWithTheSecretTheOldReceiverTrusts() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url(), null);
            String id = Fixtures.create(app.liveKey(), "feed-removed-" + System.nanoTime());
            receiver.await(h -> h.text().contains(id));
            given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"webhook_url\":null}")
                    .patch("/admin/v1/applications/" + app.id()).then().statusCode(200);
            String reader = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                    .body("{\"mode\":\"live\",\"scopes\":[\"verifications:read\"]}")
                    .post("/admin/v1/applications/" + app.id() + "/keys").then().statusCode(201).extract().path("key");
            List<Map<String, Object>> events = FeedReader.follow(path -> as(reader).get(path).then().statusCode(200)
                    .extract().jsonPath(), "start", "", read -> read.stream().anyMatch(e -> body(e).contains(id)),
                    Duration.ofSeconds(10)).events();
            assertTrue(events.stream().anyMatch(e -> body(e).contains(id)));
            WebhookVerifier old = verifier(app.webhookSecret());
            FeedReader.assertSigned(events, verifier(app.feedSecret()),
                    (headers, e) -> assertFalse(old.verify(headers, bytes(e)).valid(), "the old receiver's secret"));
        }
    }

    @Test
    void settingANewUrlRotatesThePushSecretWithAnOverlap() throws Exception {
        try (Receiver first = new Receiver(); Receiver second = new Receiver()) {
            Fixtures.App app = Fixtures.app(first.url(), null);
            String rotated = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                    .body("{\"webhook_url\":\"" + second.url() + "\"}").patch("/admin/v1/applications/" + app.id())
                    .then().statusCode(200).body("webhook_url", equalTo(second.url())).extract().path("webhook_secret");
            assertTrue(rotated != null && rotated.startsWith("whsec_"), "the new secret is shown once");
            assertNotEquals(app.webhookSecret(), rotated);

            String during = Fixtures.create(app.liveKey(), "rotated-" + System.nanoTime());
            Receiver.Received d = second.await(h -> h.text().contains(during));
            assertTrue(verifier(rotated).verify(d.headers(), d.body()).valid(), "the new secret signs");
            assertTrue(verifier(app.webhookSecret()).verify(d.headers(), d.body()).valid(), "the old one too, during the overlap");

            clock.advance(Duration.ofHours(25));
            String after = Fixtures.create(app.liveKey(), "rotated-later-" + System.nanoTime());
            Receiver.Received a = second.await(h -> h.text().contains(after));
            assertTrue(verifier(rotated).verify(a.headers(), a.body()).valid());
            assertFalse(verifier(app.webhookSecret()).verify(a.headers(), a.body()).valid(), "the old one after the overlap");
        }
    }

    private WebhookVerifier verifier(String secret) {
        return new WebhookVerifier(SignatureScheme.KYC, List.of(secret), WebhookVerifier.DEFAULT_TOLERANCE, clock);
    }

    private static String body(Map<String, Object> e) {
        return (String) e.get("body");
    }

    private static byte[] bytes(Map<String, Object> e) {
        return body(e).getBytes(StandardCharsets.UTF_8);
    }
}
