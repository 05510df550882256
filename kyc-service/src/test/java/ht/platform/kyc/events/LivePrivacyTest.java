package ht.platform.kyc.events;

import ht.platform.support.testing.TestDatabase;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import ht.platform.support.testing.Receiver;
import ht.platform.kyc.provider.StubFaceMatcher;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live verifications with a face matcher (a test stub): a person is verified from real uploads, and then every JSON
 * field the service gives out about them (the read response, the subject status, every webhook event as delivered
 * and as stored, the proof response and the proof's decoded header and claims) is walked for images, selfies,
 * templates, the document number, the holder's names and birth date. An engine failure ends in technical_error.
 */
@QuarkusTest
@TestProfile(StubFaceMatcher.Profile.class)
class LivePrivacyTest {

    static final String DOC_NUMBER = "HT8841207";
    static final String SURNAME = "BAPTISTE";
    static final String GIVEN = "WIDLINE";
    static final String BIRTH = "920314";

    /** Everything that identifies the person or carries their images, in the forms it could leak in. */
    static String[] secrets(byte[] front, byte[] selfie) {
        return new String[] {DOC_NUMBER, SURNAME, GIVEN, BIRTH, "1992-03-14", "19920314", "14/03/1992",
                Base64.getEncoder().encodeToString(front).substring(0, 60), Base64.getEncoder().encodeToString(selfie).substring(0, 60),
                HexFormat.of().formatHex(front, 16, 48), HexFormat.of().formatHex(selfie, 16, 48)};
    }

    @Test
    void nothingPersonalLeavesTheServiceForAVerifiedPerson() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            String mrz = Images.mrz("HTI", DOC_NUMBER, BIRTH, "320101", SURNAME, GIVEN, false);
            byte[] front = Images.passport(mrz);
            byte[] selfie = Images.sharp(StubFaceMatcher.SAME, 640, 42);
            String[] secrets = secrets(front, selfie);
            String id = runLive(app, "client-user-7", front, selfie);

            // the read response: verified from real evidence, facts only
            String read = as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200)
                    .body("status", equalTo("verified")).body("result.checks.face.status", equalTo("passed"))
                    .body("result.checks.mrz.status", equalTo("passed")).body("result.checks.document.issuing_country", equalTo("HT"))
                    .extract().asString();
            assertWalked(read, secrets);

            // the subject status
            String subject = as(app.liveKey()).get("/api/v1/subjects/client-user-7/status").then().statusCode(200)
                    .body("status", equalTo("verified")).extract().asString();
            assertWalked(subject, secrets);

            // every event, as the client's endpoint received it
            List<String> kinds = List.of("created", "started", "document_submitted", "processing", "verified");
            for (String kind : kinds) {
                Receiver.Received hit = receiver.await(h -> h.text().contains("\"verification." + kind + "\"") && h.text().contains(id));
                assertWalked(hit.text(), secrets);
                hit.headers().forEach((name, value) -> {
                    for (String secret : secrets) {
                        assertTrue(!value.toLowerCase().contains(secret.toLowerCase()), "personal data in header " + name);
                    }
                });
            }
            // ... and as the outbox keeps them, with the operator's view of the deliveries
            try (Connection db = TestDatabase.connect()) {
                List<String> payloads = strings(db, "SELECT convert_from(body, 'UTF8') FROM kyc.outbox_events WHERE object_id = ? ORDER BY created_at", id);
                assertEquals(kinds.size(), payloads.size());
                for (String payload : payloads) {
                    assertWalked(payload, secrets);
                }
                assertEquals(0, strings(db, "SELECT kind FROM kyc.verification_images WHERE verification_id = ?", id).size(), "images erased");
            }
            String deliveries = given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app.id() + "/deliveries")
                    .then().statusCode(200).extract().asString();
            assertWalked(deliveries, secrets);

            // the proof: the response, and what the compact JWT carries (header and claims decoded; the signature is 64 bytes)
            for (String body : List.of("", "{\"include_external_user_id\":true}")) {
                var proofCall = as(app.liveKey());
                if (!body.isEmpty()) {
                    proofCall = proofCall.body(body);
                }
                var proofResponse = proofCall.post("/api/v1/verifications/" + id + "/proof").then().statusCode(200).extract();
                String proof = proofResponse.path("proof");
                String[] parts = proof.split("\\.");
                assertEquals(3, parts.length);
                String header = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
                String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
                assertEquals(64, Base64.getUrlDecoder().decode(parts[2]).length, "an Ed25519 signature and nothing else");
                assertWalked(header, secrets);
                assertWalked(claims, secrets);
                assertTrue(claims.contains("\"sub\":\"" + id + "\""), claims);
                assertEquals(body.isEmpty() ? false : true, claims.contains("client-user-7"), "external_user_id only on request");
                String withoutToken = proofResponse.asString().replace(proof, "jwt");
                assertWalked(withoutToken, secrets);
            }
        }
    }

    @Test
    void aDifferentFaceIsRejectedAndAnEngineFailureEndsInTechnicalError() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            String mrz = Images.mrz("HTI", DOC_NUMBER, BIRTH, "320101", SURNAME, GIVEN, false);
            byte[] front = Images.passport(mrz);

            byte[] other = Images.sharp(StubFaceMatcher.DIFFERENT, 640, 52);
            String mismatch = runLive(app, "client-user-8", front, other);
            String read = as(app.liveKey()).get("/api/v1/verifications/" + mismatch).then().body("status", equalTo("rejected"))
                    .body("reason_code", equalTo("face_mismatch")).body("result.checks.face.status", equalTo("failed")).extract().asString();
            assertWalked(read, secrets(front, other));

            // the matcher crashes inside the decision: the person gets the result page, not a 500; the verification ends technical_error
            byte[] crash = Images.sharp(StubFaceMatcher.CRASH, 640, 53);
            String failed = runLive(app, "client-user-9", front, crash);
            as(app.liveKey()).get("/api/v1/verifications/" + failed).then().statusCode(200).body("status", equalTo("technical_error"))
                    .body("reason_code", equalTo("processing_error")).body("completed_at", org.hamcrest.Matchers.notNullValue());
            Receiver.Received hit = receiver.await(h -> h.text().contains("\"verification.technical_error\"") && h.text().contains(failed));
            assertWalked(hit.text(), secrets(front, crash));
            try (Connection db = TestDatabase.connect()) {
                assertEquals(List.of("verification.created", "verification.started", "verification.document_submitted",
                                "verification.processing", "verification.technical_error"),
                        strings(db, "SELECT type FROM kyc.outbox_events WHERE object_id = ? ORDER BY created_at", failed));
                assertEquals(0, strings(db, "SELECT kind FROM kyc.verification_images WHERE verification_id = ?", failed).size(),
                        "images erased after a technical error too");
            }
        }
    }

    private String runLive(Fixtures.App app, String externalUserId, byte[] front, byte[] selfie) {
        return Fixtures.live(app.liveKey(), externalUserId, front, selfie);
    }

    private static void assertWalked(String json, String[] secrets) {
        assertTrue(PrivacyWalk.leaves(json) > 0, "nothing to walk in " + json);
        PrivacyWalk.assertClean(json, secrets);
    }

    private static List<String> strings(Connection db, String sql, String id) throws Exception {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
