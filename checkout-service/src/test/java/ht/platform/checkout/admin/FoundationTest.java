package ht.platform.checkout.admin;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
class FoundationTest {

    static final String ADMIN = "Bearer test-admin-token";
    static final String REQUEST_ID = "Checkout-Request-Id";

    @Test
    void healthAndOpenApiAnswer() {
        given().get("/q/health/live").then().statusCode(200).header(REQUEST_ID, startsWith("req_"));
        given().get("/q/health/ready").then().statusCode(200).body("checks.name", hasItem(org.hamcrest.Matchers.containsString("Reactive PostgreSQL")));
        given().get("/openapi.json").then().statusCode(200).body("openapi", startsWith("3.1"));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void unknownPathIsJson404WithRequestId() {
        String id = given().get("/v2/nope").then().statusCode(404).contentType(ContentType.JSON)
                .body("error.code", equalTo("NOT_FOUND")).extract().header(REQUEST_ID);
        given().get("/nothing-here").then().statusCode(404).contentType(ContentType.JSON)
                .body("error.code", equalTo("NOT_FOUND")).body("error.request_id", notNullValue());
        org.junit.jupiter.api.Assertions.assertNotNull(id);
    }

    @Test
    void wrongMethodIs405() {
        given().header("Authorization", ADMIN).get("/admin/v1/applications").then().statusCode(405)
                .contentType(ContentType.JSON).body("error.code", equalTo("METHOD_NOT_ALLOWED"));
    }

    @Test
    void operatorApiNeedsTheToken() {
        given().contentType(ContentType.JSON).body("{\"name\":\"x\"}").post("/admin/v1/applications")
                .then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer wrong").contentType(ContentType.JSON).body("{\"name\":\"x\"}")
                .post("/admin/v1/applications").then().statusCode(401);
    }

    @Test
    void malformedAndMistypedJsonAre400() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":")
                .post("/admin/v1/applications").then().statusCode(400).body("error.code", equalTo("INVALID_JSON"))
                .body("error.request_id", startsWith("req_"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":12}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("name"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":\"a\",\"extra\":1}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("extra"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("name"));
    }

    @Test
    void bodyOver1MiBIs413() {
        String big = "{\"name\":\"" + "a".repeat(1_100_000) + "\"}";
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(big)
                .post("/admin/v1/applications").then().statusCode(413).body("error.code", equalTo("PAYLOAD_TOO_LARGE"));
    }

    @Test
    void keysAreIssuedOnceAndAuthenticate() {
        String app = given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":\"Shop\"}")
                .post("/admin/v1/applications").then().statusCode(201).body("id", startsWith("app_")).extract().path("id");
        String key = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"mode\":\"test\",\"scopes\":[\"payment_intents:read\"]}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(201)
                .body("key", matchesPattern("co_test_[A-Za-z0-9_-]{43}")).extract().path("key");
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"staging\"}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(400).body("error.param", equalTo("mode"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\",\"scopes\":[\"root\"]}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(400);
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/app_missing/keys").then().statusCode(404);
        given().get("/api/v1/whatever").then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer co_test_unknown").get("/api/v1/whatever").then().statusCode(401);
        given().header("Authorization", "Bearer " + key).get("/api/v1/whatever").then().statusCode(404);
    }
}
