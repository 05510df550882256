package ht.platform.checkout.it;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs against the packaged artifact (the fast-jar in target/quarkus-app, or the native executable when built
 * with -Dnative), started by Quarkus in the "test" profile: the same checks a Kubernetes probe and an operator
 * make right after a deployment.
 */
@QuarkusIntegrationTest
class HealthIT {

    static final String ADMIN = "Bearer test-admin-token";
    static final String REQUEST_ID = "Checkout-Request-Id";

    @Test
    void probesAnswerAndReadinessChecksTheDatabase() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem(org.hamcrest.Matchers.containsString("PostgreSQL")));
    }

    @Test
    void openApiDocumentIsServed() {
        given().get("/openapi.json").then().statusCode(200).contentType(ContentType.JSON)
                .body("openapi", startsWith("3.1")).body("paths", notNullValue());
    }

    @Test
    void everyResponseCarriesARequestIdAndUnknownPathsAreJson404() {
        given().get("/q/health/live").then().header(REQUEST_ID, notNullValue());
        io.restassured.response.Response response = given().get("/no/such/path");
        response.then().statusCode(404).contentType(ContentType.JSON)
                .body("error.code", equalTo("NOT_FOUND")).body("error.message", notNullValue());
        String header = response.getHeader(REQUEST_ID);
        assertEquals(header, response.path("error.request_id"), "the header and the error body name the same request");
        String second = given().get("/no/such/path").getHeader(REQUEST_ID);
        org.junit.jupiter.api.Assertions.assertNotEquals(header, second, "every request gets its own id");
    }

    @Test
    void operatorCreatesAnApplicationAndAKeyThatAuthenticates() {
        given().contentType(ContentType.JSON).body("{\"name\":\"x\"}").post("/admin/v1/applications")
                .then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        String owner = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"Integration test\"}")
                .post("/admin/v1/applications").then().statusCode(201)
                .body("id", startsWith("app_")).body("name", equalTo("Integration test")).extract().path("id");
        String key = given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + owner + "/keys").then().statusCode(201)
                .body("mode", equalTo("test")).body("created_at", notNullValue())
                .body("key", matchesPattern("co_test_[A-Za-z0-9_-]{43}")).extract().path("key");
        given().get("/api/v1/no-such-resource").then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer " + key).get("/api/v1/no-such-resource").then().statusCode(404)
                .contentType(ContentType.JSON).body("error.code", equalTo("NOT_FOUND"));
    }
}
