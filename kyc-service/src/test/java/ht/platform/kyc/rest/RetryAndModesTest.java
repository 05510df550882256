package ht.platform.kyc.rest;

import ht.platform.kyc.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** A retry starts clean (issue 14 item 10), and subject restrictions stay in their mode. */
@QuarkusTest
class RetryAndModesTest {

    @Test
    void retryClearsThePreviousAttempt() {
        Fixtures.App app = Fixtures.app(null);
        String id = Fixtures.create(app.testKey(), "again");
        Fixtures.complete(app.testKey(), id, "retry_required");
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("retry_required"))
                .body("result", notNullValue()).body("reason_code", equalTo("document_blurry"));

        as(app.testKey()).post("/api/v1/verifications/" + id + "/retry").then().statusCode(200).body("status", equalTo("created"));

        as(app.testKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("created"))
                .body("attempts", equalTo(2)).body("result", nullValue()).body("reason_code", nullValue())
                .body("reason_codes", equalTo(List.of())).body("completed_at", nullValue());
    }

    @Test
    void aTestRestrictionLeavesLiveAloneAndTheOtherWayRound() {
        Fixtures.App app = Fixtures.app(null);
        Fixtures.complete(app.testKey(), Fixtures.create(app.testKey(), "both"), "verified");
        String live = Fixtures.create(app.liveKey(), "both");
        as(app.liveKey()).get("/api/v1/subjects/both/status").then().statusCode(200).body("status", equalTo("unverified"));

        restrict(app.id(), "both", "{\"reason\":\"test fraud drill\",\"mode\":\"test\"}");
        status(app.testKey(), "both", "restricted");
        status(app.liveKey(), "both", "unverified");

        Fixtures.App other = Fixtures.app(null);
        Fixtures.complete(other.testKey(), Fixtures.create(other.testKey(), "both"), "verified");
        Fixtures.create(other.liveKey(), "both");
        restrict(other.id(), "both", "{\"reason\":\"fraud\",\"mode\":\"live\"}");
        status(other.liveKey(), "both", "restricted");
        status(other.testKey(), "both", "verified");
        // without a mode the operator restricts in live
        restrict(other.id(), "someone", "{}");
        status(other.liveKey(), "someone", "restricted");
        as(other.testKey()).get("/api/v1/subjects/someone/status").then().statusCode(404);
        restrict(other.id(), "both", "{\"mode\":\"sandbox\"}", 400);
        // three test rejections restrict in test only
        Fixtures.App third = Fixtures.app(null);
        Fixtures.create(third.liveKey(), "serial");
        for (int i = 0; i < 3; i++) {
            Fixtures.complete(third.testKey(), Fixtures.create(third.testKey(), "serial"), "rejected");
        }
        status(third.testKey(), "serial", "restricted");
        status(third.liveKey(), "serial", "unverified");
        as(app.liveKey()).get("/api/v1/verifications/" + live).then().statusCode(200);
    }

    private static void restrict(String app, String user, String body) {
        restrict(app, user, body, 204);
    }

    private static void restrict(String app, String user, String body, int expected) {
        given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body(body)
                .post("/admin/v1/applications/" + app + "/subjects/" + user + "/restrict").then().statusCode(expected);
    }

    private static void status(String key, String user, String expected) {
        as(key).get("/api/v1/subjects/" + user + "/status").then().statusCode(200).body("status", equalTo(expected));
    }
}
