package ht.platform.kyc.web;

import ht.platform.kyc.Erasure;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.Map;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * The face sidecar is configured but nothing answers at its address: the capabilities do not claim a face match, and a
 * live decision that needs it ends technical_error (not a 500, not a hang), with the images erased.
 */
@QuarkusTest
@TestProfile(FaceSidecarDownTest.NobodyThere.class)
class FaceSidecarDownTest {

    /** A loopback port that was free a moment ago: connections are refused. */
    public static class NobodyThere implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return Map.of("kyc.face.url", "http://127.0.0.1:" + socket.getLocalPort());
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void capabilitiesSayNoFaceMatchAndADecisionEndsTechnicalError() throws Exception {
        given().get("/api/v1/capabilities").then().statusCode(200).body("features.face_match", equalTo(false))
                .body("features.liveness.selfie_not_document_portrait", equalTo(false))
                .body("features.checks.passport.can_be_verified", equalTo(false));
        Fixtures.App app = Fixtures.app(null);
        byte[] passport = Images.passport(Images.mrz("HTI", "HX4271839", "900101", "310101", false));
        String id = Fixtures.live(app.liveKey(), "down-" + System.nanoTime(), passport, Images.sharp(640, 640, 8));
        as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("technical_error"))
                .body("reason_code", equalTo("processing_error"));
        Erasure.assertErased(id);
    }
}
