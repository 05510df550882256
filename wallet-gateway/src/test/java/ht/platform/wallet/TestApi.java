package ht.platform.wallet;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.util.UUID;

import static io.restassured.RestAssured.given;

/** Creates a fresh project and keys through the operator API, the way a merchant starts. */
public final class TestApi {

    public static final String ADMIN = "Bearer test-admin-token";

    private TestApi() { }

    public static String project(String name) {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\"}").post("/admin/v1/projects")
                .then().statusCode(201).extract().path("id");
    }

    /** A key of the mode; no permissions = all but dashboard:write (asked for by name only). */
    public static String key(String project, String mode, String... permissions) {
        String perms = permissions.length == 0 ? "" : ",\"permissions\":[\"" + String.join("\",\"", permissions) + "\"]";
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"mode\":\"" + mode + "\"" + perms + "}").post("/admin/v1/projects/" + project + "/keys")
                .then().statusCode(201).extract().path("key");
    }

    public static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    public static String newKey() {
        return UUID.randomUUID().toString();
    }

    /** Creates a test payment and returns its id. */
    public static String payment(String key, long amount) {
        return as(key).body("{\"amount\":" + amount + ",\"currency\":\"HTG\",\"reference\":\"order-" + UUID.randomUUID() + "\"}")
                .post("/api/v1/payments").then().statusCode(201).extract().path("id");
    }

    /** Credits the test balance by {@code amount} through a succeeded payment. */
    public static void fund(String key, long amount) {
        String id = payment(key, amount);
        as(key).post("/api/v1/test_helpers/payments/" + id + "/succeed").then().statusCode(200);
    }
}
