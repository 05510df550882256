package ht.platform.kyc.rest;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** A proof is issued only while the subject's status is verified (issue 14 item 7). */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class ProofTellsTheTruthTest {

    @Inject
    MovableClock clock;


    @Test
    void restrictedSubjectGetsNoProof() {
        Fixtures.App app = Fixtures.app(null);
        String id = Fixtures.create(app.testKey(), "to-restrict");
        Fixtures.complete(app.testKey(), id, "verified");
        as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(200);

        given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body("{\"reason\":\"fraud\",\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + app.id() + "/subjects/to-restrict/restrict").then().statusCode(204);

        as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(409)
                .body("error.code", equalTo("SUBJECT_RESTRICTED")).body("error.request_id", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void endedValidityGetsNoProof() {
        Fixtures.App app = Fixtures.app(null);
        String id = Fixtures.create(app.testKey(), "long-ago");
        Fixtures.complete(app.testKey(), id, "verified");
        clock.advance(Duration.ofDays(364));
        as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(200);

        clock.advance(Duration.ofDays(2));
        as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(409)
                .body("error.code", equalTo("VERIFICATION_EXPIRED")).body("error.message", containsString("ended"));
    }

    @Test
    void aLaterRejectionEndsTheProofsOfAnEarlierVerification() {
        Fixtures.App app = Fixtures.app(null);
        String first = Fixtures.create(app.testKey(), "changed");
        Fixtures.complete(app.testKey(), first, "verified");
        clock.advance(Duration.ofDays(1));
        Fixtures.complete(app.testKey(), Fixtures.create(app.testKey(), "changed"), "rejected");
        as(app.testKey()).post("/api/v1/verifications/" + first + "/proof").then().statusCode(409)
                .body("error.code", equalTo("SUBJECT_NOT_VERIFIED"));
    }
}
