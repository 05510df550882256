package ht.platform.kyc.admin;

import ht.platform.support.testing.FoundationContract;
import ht.platform.support.testing.ServiceTerms;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
public class FoundationTest extends FoundationContract {

    static final String REQUEST_ID = ServiceTerms.KYC.requestIdHeader();

    public FoundationTest() {
        super(ServiceTerms.KYC);
    }

    @Test
    void applicationFieldsAreValidated() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("name"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":\"a\",\"return_urls\":[\"ftp://x\"]}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("return_urls"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":\"a\",\"webhook_url\":\"not a url\"}")
                .post("/admin/v1/applications").then().statusCode(400).body("error.param", equalTo("webhook_url"));
    }

    @Test
    void theApiBodyLimitHoldsBeforeAuthentication() {
        String big = "{\"name\":\"" + "a".repeat(1_100_000) + "\"}";
        given().header("Authorization", "Bearer kyc_test_x").contentType(ContentType.JSON).body(big)
                .post("/api/v1/verifications").then().statusCode(413).body("error.code", equalTo("PAYLOAD_TOO_LARGE"))
                .header(REQUEST_ID, startsWith("req_"));
    }

    @Test
    void applicationsKeysSecretsAndRevocation() {
        var created = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"Bank\",\"return_urls\":[\"https://bank.example/done\"],\"webhook_url\":\"https://bank.example/hooks\"}")
                .post("/admin/v1/applications").then().statusCode(201).body("id", startsWith("app_"))
                .body("return_urls[0]", equalTo("https://bank.example/done"))
                .body("webhook_secret", matchesPattern("whsec_[A-Za-z0-9_-]{43}")).extract();
        String app = created.path("id");
        String secret = created.path("webhook_secret");

        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"webhook_url\":null,\"return_urls\":[\"https://bank.example/a\"]}")
                .patch("/admin/v1/applications/" + app).then().statusCode(200).body("webhook_url", nullValue())
                .body("return_urls[0]", equalTo("https://bank.example/a")).body("webhook_secret", nullValue());
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"colour\":\"red\"}")
                .patch("/admin/v1/applications/" + app).then().statusCode(400).body("error.param", equalTo("colour"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{}")
                .patch("/admin/v1/applications/app_missing").then().statusCode(404);
        String rotated = given().header("Authorization", ADMIN).post("/admin/v1/applications/" + app + "/webhook_secret/rotate")
                .then().statusCode(200).body("webhook_secret", startsWith("whsec_")).extract().path("webhook_secret");
        Assertions.assertNotEquals(secret, rotated);

        String key = given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(201)
                .body("key", matchesPattern("kyc_test_[A-Za-z0-9_-]{43}")).body("mode", equalTo("test")).extract().path("key");
        String keyId = given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"live\",\"scopes\":[\"subjects:read\"]}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(201)
                .body("key", matchesPattern("kyc_live_[A-Za-z0-9_-]{43}")).extract().path("id");
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"staging\"}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(400).body("error.param", equalTo("mode"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\",\"scopes\":[\"root\"]}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(400).body("error.param", equalTo("scopes"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/app_missing/keys").then().statusCode(404);

        given().get("/api/v1/verifications/kyc_ver_missing").then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer kyc_test_unknown").get("/api/v1/verifications/kyc_ver_missing").then().statusCode(401);
        given().header("Authorization", "Bearer gw_test_abc").get("/api/v1/verifications/kyc_ver_missing").then().statusCode(401);
        given().header("Authorization", "Bearer " + key).get("/api/v1/verifications/kyc_ver_missing").then().statusCode(404);

        given().header("Authorization", ADMIN).delete("/admin/v1/keys/" + keyId).then().statusCode(204);
        given().header("Authorization", ADMIN).delete("/admin/v1/keys/key_missing").then().statusCode(404);

        given().header("Authorization", ADMIN).post("/admin/v1/applications/" + app + "/revoke").then().statusCode(200)
                .body("revoked_at", notNullValue());
        given().header("Authorization", "Bearer " + key).get("/api/v1/verifications/kyc_ver_missing").then().statusCode(403)
                .body("error.code", equalTo("FORBIDDEN"));
    }

    @Test
    void oddPageTokensAreNotFound() {
        for (String page : java.util.List.of("/v/AA%20AA", "/v/AA%20AA/consent", "/v/AA%22%3E/document_type")) {
            given().urlEncodingEnabled(false).get(page).then().statusCode(org.hamcrest.Matchers.anyOf(equalTo(404), equalTo(405)));
        }
        given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body("decision=accept")
                .post("/v/AA%20AA/consent").then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));
        given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body("type=passport")
                .post("/v/AA%20AA/document_type").then().statusCode(404);
    }

    @Test
    void nulAndNullItemsInATreeBodyAre400() {
        String app = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"Tree\",\"return_urls\":[\"https://bank.example/done\"]}")
                .post("/admin/v1/applications").then().statusCode(201).extract().path("id");
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\":\"a\\u0000\"}")
                .patch("/admin/v1/applications/" + app).then().statusCode(400).body("error.param", equalTo("name"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"return_urls\":[\"https://x.example/\\u0000\"]}")
                .patch("/admin/v1/applications/" + app).then().statusCode(400).body("error.param", equalTo("return_urls[0]"));
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"return_urls\":[null]}")
                .patch("/admin/v1/applications/" + app).then().statusCode(400).body("error.code", equalTo("INVALID_REQUEST"));
        given().header("Authorization", ADMIN).urlEncodingEnabled(false).get("/admin/v1/applications/" + app + "/deliveries?status=bogus")
                .then().statusCode(400).body("error.param", equalTo("status"));
        given().header("Authorization", ADMIN).urlEncodingEnabled(false).get("/admin/v1/applications/" + app + "/deliveries?status=%00")
                .then().statusCode(400).body("error.param", equalTo("status"));
    }

    @Override
    protected java.util.List<String> pathsWithSecrets() {
        return java.util.List.of("/v/SECRETxyz", "/v/SECRETxyz/consent", "/api/v1/subjects/SECRETxyz/status");
    }
}
