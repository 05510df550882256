package ht.platform.kyc.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.TestDatabase;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kyc test mode cannot forge live trust (issue 14 item 6): test proofs are signed with a key that only the test JWKS
 * publishes, and test events go only to the test address, signed only with the test secret. Signatures are checked
 * with the JDK's own Ed25519 against every key of the JWKS, not with the service's code.
 */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class TestAndLiveApartTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    MovableClock clock;


    @Test
    void aTestProofNeverVerifiesAgainstTheLiveJwks() throws Exception {
        Fixtures.App app = Fixtures.app(null);
        String testId = Fixtures.create(app.testKey(), "proof-person");
        Fixtures.complete(app.testKey(), testId, "verified");
        String testProof = as(app.testKey()).post("/api/v1/verifications/" + testId + "/proof").then().statusCode(200).extract().path("proof");

        String liveId = Fixtures.create(app.liveKey(), "proof-person");
        markVerified(liveId);
        String liveProof = as(app.liveKey()).post("/api/v1/verifications/" + liveId + "/proof").then().statusCode(200).extract().path("proof");

        JsonNode liveJwks = JSON.readTree(given().get("/.well-known/jwks.json").then().statusCode(200).extract().asString());
        JsonNode testJwks = JSON.readTree(given().get("/.well-known/jwks-test.json").then().statusCode(200)
                .body("keys[0].kty", equalTo("OKP")).body("keys[0].crv", equalTo("Ed25519")).body("keys[0].d", nullValue())
                .extract().asString());

        assertFalse(verifiesWithAnyKey(testProof, liveJwks), "a test proof must not verify against the live JWKS");
        assertTrue(verifiesWithAnyKey(testProof, testJwks));
        assertTrue(verifiesWithAnyKey(liveProof, liveJwks));
        assertFalse(verifiesWithAnyKey(liveProof, testJwks));
        for (JsonNode live : liveJwks.get("keys")) {
            for (JsonNode test : testJwks.get("keys")) {
                assertNotEquals(live.get("x").asText(), test.get("x").asText(), "no key is in both JWKS");
            }
        }
        assertEquals(false, claims(testProof).get("livemode").asBoolean(true));
        assertEquals(true, claims(liveProof).get("livemode").asBoolean(false));
        assertTrue(claims(testProof).has("livemode") && claims(liveProof).has("livemode"));
    }

    @Test
    void testEventsReachOnlyTheTestAddressSignedWithTheTestSecret() throws Exception {
        try (Receiver live = new Receiver(); Receiver test = new Receiver()) {
            Fixtures.App app = Fixtures.app(live.url(), test.url());
            assertTrue(app.webhookSecret().startsWith("whsec_") && app.testWebhookSecret().startsWith("whsec_"));
            assertNotEquals(app.webhookSecret(), app.testWebhookSecret());

            String testId = Fixtures.create(app.testKey(), "events-person");
            Fixtures.complete(app.testKey(), testId, "verified");
            Receiver.Received verified = test.await(h -> h.text().contains("\"verification.verified\"") && h.text().contains(testId));
            String signature = verified.headers().get("Kyc-Signature");
            Webhook.constructEvent(verified.text(), signature, app.testWebhookSecret());
            assertThrows(SignatureVerificationException.class, () -> Webhook.constructEvent(verified.text(), signature, app.webhookSecret()));

            String liveId = Fixtures.create(app.liveKey(), "events-person");
            Receiver.Received created = live.await(h -> h.text().contains("\"verification.created\"") && h.text().contains(liveId));
            Webhook.constructEvent(created.text(), created.headers().get("Kyc-Signature"), app.webhookSecret());
            assertThrows(SignatureVerificationException.class,
                    () -> Webhook.constructEvent(created.text(), created.headers().get("Kyc-Signature"), app.testWebhookSecret()));

            // the live event arrived after every test event was sent; none of them reached the live address
            test.await(h -> h.text().contains("\"verification.processing\"") && h.text().contains(testId));
            assertTrue(live.received.stream().noneMatch(h -> h.text().contains(testId) || h.text().contains("\"livemode\":false")));
            assertTrue(test.received.stream().noneMatch(h -> h.text().contains(liveId) || h.text().contains("\"livemode\":true")));
        }
    }

    @Test
    void withoutATestAddressTestEventsAreRecordedNotSent() throws Exception {
        try (Receiver live = new Receiver()) {
            Fixtures.App app = Fixtures.app(live.url(), null);
            given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app.id() + "/deliveries").then().statusCode(200);
            String testId = Fixtures.create(app.testKey(), "quiet");
            Fixtures.complete(app.testKey(), testId, "verified");
            String liveId = Fixtures.create(app.liveKey(), "quiet");
            live.await(h -> h.text().contains(liveId));
            try (Connection db = TestDatabase.connect()) {
                assertEquals(3, count(db, "SELECT count(*) FROM kyc.outbox_events WHERE object_id = ?", testId), "created, processing, verified");
                assertEquals(0, count(db, "SELECT count(*) FROM kyc.outbox_deliveries d JOIN kyc.outbox_events e ON e.id = d.event_id"
                        + " WHERE e.object_id = ?", testId));
            }
            assertTrue(live.received.stream().noneMatch(h -> h.text().contains(testId)));

            // the test address set later (PATCH with mode) gets the next test events, signed with a new test secret
            // (shown once) only: the one before was no receiver's
            try (Receiver test = new Receiver()) {
                String rotated = given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON)
                        .body("{\"mode\":\"test\",\"webhook_url\":\"" + test.url() + "\"}").patch("/admin/v1/applications/" + app.id())
                        .then().statusCode(200).body("test_webhook_url", equalTo(test.url())).body("webhook_url", equalTo(live.url()))
                        .body("webhook_secret", nullValue()).body("test_webhook_secret", notNullValue())
                        .extract().path("test_webhook_secret");
                String next = Fixtures.create(app.testKey(), "quiet-2");
                Receiver.Received hit = test.await(h -> h.text().contains(next));
                Webhook.constructEvent(hit.text(), hit.headers().get("Kyc-Signature"), rotated);
                assertThrows(SignatureVerificationException.class,
                        () -> Webhook.constructEvent(hit.text(), hit.headers().get("Kyc-Signature"), app.testWebhookSecret()));
                assertTrue(live.received.stream().noneMatch(h -> h.text().contains(next)));
            }
        }
    }

    /** Issue 14 item 10: a second rotation while the first one's overlap lasts is refused; each mode rotates on its own. */
    @Test
    void aSecondRotationWithinTheOverlapIsRefused() throws Exception {
        try (Receiver live = new Receiver()) {
            Fixtures.App app = Fixtures.app(live.url(), null);
            String first = rotate(app.id(), "").then().statusCode(200).body("webhook_secret", notNullValue())
                    .body("test_webhook_secret", nullValue()).extract().path("webhook_secret");
            clock.advance(Duration.ofHours(23));
            rotate(app.id(), "{\"mode\":\"live\"}").then().statusCode(409).body("error.code", equalTo("ROTATION_IN_PROGRESS"))
                    .body("error.message", org.hamcrest.Matchers.matchesPattern(".*\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}.*")).body("error.request_id", notNullValue());
            // the test secret is apart: its rotation is not blocked by the live one
            String testRotated = rotate(app.id(), "{\"mode\":\"test\"}").then().statusCode(200).body("webhook_secret", nullValue())
                    .extract().path("test_webhook_secret");
            assertNotEquals(app.testWebhookSecret(), testRotated);
            rotate(app.id(), "{\"mode\":\"sandbox\"}").then().statusCode(400).body("error.param", equalTo("mode"));

            // both live secrets younger than 24 h still sign
            String id = Fixtures.create(app.liveKey(), "rotating-live");
            Receiver.Received hit = live.await(h -> h.text().contains(id));
            Webhook.constructEvent(hit.text(), hit.headers().get("Kyc-Signature"), first);
            Webhook.constructEvent(hit.text(), hit.headers().get("Kyc-Signature"), app.webhookSecret());

            clock.advance(Duration.ofHours(1).plusSeconds(1));
            String second = rotate(app.id(), "{\"mode\":\"live\"}").then().statusCode(200).extract().path("webhook_secret");
            assertNotEquals(first, second);
        }
    }

    private static io.restassured.response.Response rotate(String app, String body) {
        var request = given().header("Authorization", Fixtures.ADMIN);
        if (!body.isEmpty()) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        return request.post("/admin/v1/applications/" + app + "/webhook_secret/rotate");
    }

    /** Verifies the compact JWS with the JDK's Ed25519 against each key of the JWKS, whatever the kid says. */
    static boolean verifiesWithAnyKey(String jws, JsonNode jwks) throws Exception {
        String[] parts = jws.split("\\.");
        byte[] input = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
        byte[] signature = Base64.getUrlDecoder().decode(parts[2]);
        boolean any = false;
        for (JsonNode key : jwks.get("keys")) {
            byte[] spki = concat(HexFormat.of().parseHex("302a300506032b6570032100"), Base64.getUrlDecoder().decode(key.get("x").asText()));
            PublicKey publicKey = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(publicKey);
            verifier.update(input);
            any |= verifier.verify(signature);
        }
        return any;
    }

    private static JsonNode claims(String jws) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(jws.split("\\.")[1]));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A live verification can only be verified from real uploads and a face matcher; for the proof, its row says so. */
    private static void markVerified(String id) throws Exception {
        try (Connection db = TestDatabase.connect();
             PreparedStatement st = db.prepareStatement("UPDATE kyc.verifications SET status = 'verified', verified_at = now(),"
                     + " completed_at = now(), updated_at = now() WHERE id = ?")) {
            st.setString(1, id);
            assertEquals(1, st.executeUpdate());
        }
    }

    private static long count(Connection db, String sql, String id) throws Exception {
        try (PreparedStatement st = db.prepareStatement(sql)) {
            st.setString(1, id);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
