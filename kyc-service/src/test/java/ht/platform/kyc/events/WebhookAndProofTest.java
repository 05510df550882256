package ht.platform.kyc.events;

import ht.platform.support.testing.EventCatalogContract;
import ht.platform.support.testing.Deliveries;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.Receiver;
import ht.platform.kyc.TestSupport;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.SendResult;
import ht.platform.support.outbox.WebhookTransport;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.jose4j.jwa.AlgorithmConstraints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class WebhookAndProofTest {

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    KycDeliveryPolicy store;

    @Inject
    WebhookTransport transport;


    /** The "done when": create, complete in test mode, receive and verify the webhook, proof offline, subject status. */
    @Test
    void newUserEndToEnd() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            String id = Fixtures.create(app.testKey(), "person-42");
            Fixtures.complete(app.testKey(), id, "verified");

            Receiver.Received hit = receiver.await(h -> h.text().contains("\"verification.verified\"") && h.text().contains(id));
            String signature = hit.headers().get("Kyc-Signature");
            assertTrue(signature.matches("t=\\d+,v1=[0-9a-f]{64}"), signature);
            Event event = Webhook.constructEvent(hit.text(), signature, app.testWebhookSecret());
            assertEquals("verification.verified", event.getType());
            assertEquals(hit.headers().get("Kyc-Event-Id"), event.getId());
            assertEquals("application/json", hit.headers().get("Content-Type"));
            receiver.await(h -> h.text().contains("\"verification.created\"") && h.text().contains(id));
            receiver.await(h -> h.text().contains("\"verification.processing\"") && h.text().contains(id));
            for (Receiver.Received each : receiver.received) {
                EventCatalogContract.assertMatchesSchema(each.body());
            }
            List<String> kinds = List.of("created", "started", "document_submitted", "processing", "retry_required",
                    "verified", "rejected", "expired", "cancelled", "technical_error");
            assertEquals(EventOutbox.EVENT_STATUSES, java.util.Set.copyOf(kinds));
            EventCatalogContract.assertDescribed(app.testKey(), kinds.stream().map(k -> "verification." + k).toList(),
                    List.of("Kyc-Signature", "Kyc-Event-Id"));
            PrivacyWalk.assertClean(hit.text());

            String proof = as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(200)
                    .body("token_type", equalTo("JWT")).body("alg", equalTo("EdDSA")).extract().path("proof");
            String jwks = given().get("/.well-known/jwks-test.json").then().statusCode(200).extract().asString();
            JwtClaims claims = verifyOffline(jwks, proof, app.id());
            assertEquals(id, claims.getSubject());
            assertNull(claims.getClaimValue("external_user_id"), "no personal data by default");
            assertEquals(600, claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue());
            @SuppressWarnings("unchecked")
            Map<String, Object> kyc = (Map<String, Object>) claims.getClaimValue("kyc");
            assertEquals("verified", kyc.get("status"));
            assertEquals(false, kyc.get("government_registry_checked"));
            PrivacyWalk.assertClean(claims.toJson());
            String withUser = as(app.testKey()).body("{\"include_external_user_id\":true}").post("/api/v1/verifications/" + id + "/proof")
                    .then().statusCode(200).extract().path("proof");
            assertEquals("person-42", verifyOffline(jwks, withUser, app.id()).getClaimValue("external_user_id"));
            as(app.testKey()).body("{\"include\":true}").post("/api/v1/verifications/" + id + "/proof").then().statusCode(400);
            // a tampered proof fails offline
            String tampered = proof.substring(0, proof.length() - 3) + (proof.endsWith("AAA") ? "BBB" : "AAA");
            assertFalse(verifies(jwks, tampered, app.id()));

            given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/person-42/status").then().statusCode(200)
                    .body("status", equalTo("verified")).body("level", equalTo("standard"));
        }
    }

    @Test
    void retriesFollowTheScheduleThenDeadAndResend() throws Exception {
        try (Receiver receiver = new Receiver()) {
            receiver.status.set(500);
            Fixtures.App app = Fixtures.app(receiver.url());
            String id = Fixtures.create(app.testKey(), "retry-hooks");
            receiver.await(h -> h.text().contains(id));
            String delivery = deliveryId(app.id());
            List<Duration> delays = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                    Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24), Duration.ofHours(24));
            awaitAttempts(app.id(), 1);
            for (int i = 0; i < delays.size(); i++) {
                int before = receiver.received.size();
                clock.advance(delays.get(i).minusSeconds(5));
                Deliveries.drainUntilIdle(runner, store);
                assertEquals(before, receiver.received.size(), "no attempt before the delay " + delays.get(i));
                clock.advance(Duration.ofSeconds(5));
                Deliveries.drainUntilIdle(runner, store);
                awaitAttempts(app.id(), i + 2);
            }
            given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app.id() + "/deliveries?status=dead")
                    .then().statusCode(200).body("data[0].id", equalTo(delivery)).body("data[0].attempts", equalTo(9))
                    .body("data[0].last_status", equalTo(500));
            clock.advance(Duration.ofDays(3));
            Deliveries.drainUntilIdle(runner, store);
            assertEquals(9, receiver.received.size(), "dead means no more attempts");
            clock.reset();
            receiver.status.set(200);
            given().header("Authorization", Fixtures.ADMIN).post("/admin/v1/deliveries/" + delivery + "/resend").then().statusCode(200);
            receiver.await(h -> receiver.received.size() >= 10);
            Waiting.until("the resent delivery delivered", () -> given().header("Authorization", Fixtures.ADMIN)
                    .get("/admin/v1/applications/" + app.id() + "/deliveries").then().extract().<String>path("data[0].status"),
                    "delivered"::equals);
            given().header("Authorization", Fixtures.ADMIN).post("/admin/v1/deliveries/whd_missing/resend").then().statusCode(404);
        }
    }

    @Test
    void rotationSignsWithBothSecrets() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            String rotated = given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                    .post("/admin/v1/applications/" + app.id() + "/webhook_secret/rotate")
                    .then().statusCode(200).body("webhook_secret", org.hamcrest.Matchers.nullValue()).extract().path("test_webhook_secret");
            String id = Fixtures.create(app.testKey(), "rotating");
            Receiver.Received hit = receiver.await(h -> h.text().contains(id));
            String signature = hit.headers().get("Kyc-Signature");
            assertTrue(signature.matches("t=\\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}"), signature);
            Webhook.constructEvent(hit.text(), signature, rotated);
            Webhook.constructEvent(hit.text(), signature, app.testWebhookSecret());
            // after the 24 h overlap, only the new secret signs
            clock.advance(Duration.ofHours(25));
            as(app.testKey()).post("/api/v1/verifications/" + id + "/cancel").then().statusCode(200);
            Deliveries.drainUntilIdle(runner, store);
            Receiver.Received later = receiver.await(h -> h.text().contains("verification.cancelled"));
            assertTrue(later.headers().get("Kyc-Signature").matches("t=\\d+,v1=[0-9a-f]{64}"));
        }
    }

    @Test
    void privateTargetsAreRefusedAtSendTime() throws Exception {
        try (Receiver receiver = new Receiver()) {
            SendResult result = TestSupport.await(transport.send(new OutgoingUrlPolicy(false), receiver.url(),
                    Map.of("Content-Type", "application/json"), "{}".getBytes(StandardCharsets.UTF_8)));
            assertFalse(result.success());
            assertTrue(receiver.received.isEmpty(), "nothing reached the private address");
            given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body("{\"webhook_url\":\"ftp://x.example\"}")
                    .patch("/admin/v1/applications/" + Fixtures.app(null).id()).then().statusCode(400);
        }
    }

    private void awaitAttempts(String app, int attempts) {
        int seen = Waiting.until(attempts + " attempts recorded", () -> given().header("Authorization", Fixtures.ADMIN)
                .get("/admin/v1/applications/" + app + "/deliveries").then().extract().<Integer>path("data[0].attempts"),
                n -> n != null && n >= attempts);
        assertEquals(attempts, seen);
    }

    private String deliveryId(String app) {
        return given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app + "/deliveries")
                .then().statusCode(200).extract().path("data[0].id");
    }

    static JwtClaims verifyOffline(String jwksJson, String proof, String audience) throws Exception {
        JsonWebKeySet set = new JsonWebKeySet(jwksJson);
        JwtConsumer consumer = new JwtConsumerBuilder()
                .setVerificationKeyResolver(new JwksVerificationKeyResolver(set.getJsonWebKeys()))
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "EdDSA")
                .setExpectedIssuer("http://localhost:8081").setExpectedAudience(audience)
                .setRequireExpirationTime().setRequireIssuedAt().setRequireJwtId().build();
        return consumer.processToClaims(proof);
    }

    static boolean verifies(String jwks, String proof, String audience) {
        try {
            verifyOffline(jwks, proof, audience);
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
