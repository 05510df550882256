package ht.platform.kyc.admin;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import static ht.platform.kyc.Fixtures.ADMIN;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/** PATCH /admin/v1/applications/{id}: a field left out, a field set to null and a field with a value are three answers. */
@QuarkusTest
class ApplicationPatchTest {

    @Test
    void absentNullAndValueAreTold() {
        String app = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"Bank\",\"return_urls\":[\"https://bank.example/done\"],\"webhook_url\":\"https://bank.example/hooks\","
                        + "\"test_webhook_url\":\"https://bank.example/test-hooks\"}")
                .post("/admin/v1/applications").then().statusCode(201).extract().path("id");

        patch(app, "{}").statusCode(200).body("name", equalTo("Bank")).body("return_urls[0]", equalTo("https://bank.example/done"))
                .body("webhook_url", equalTo("https://bank.example/hooks")).body("test_webhook_url", equalTo("https://bank.example/test-hooks"))
                .body("webhook_secret", nullValue()).body("test_webhook_secret", nullValue());

        // absent: only the name changes
        patch(app, "{\"name\":\"Renamed\"}").statusCode(200).body("name", equalTo("Renamed"))
                .body("return_urls[0]", equalTo("https://bank.example/done")).body("webhook_url", equalTo("https://bank.example/hooks"))
                .body("webhook_secret", nullValue());
        // a null name changes nothing, as it always did
        patch(app, "{\"name\":null}").statusCode(200).body("name", equalTo("Renamed"));

        // a value: the live address moves and a new push secret is shown once
        patch(app, "{\"webhook_url\":\"https://bank.example/moved\"}").statusCode(200)
                .body("webhook_url", equalTo("https://bank.example/moved")).body("webhook_secret", startsWith("whsec_"))
                .body("test_webhook_url", equalTo("https://bank.example/test-hooks")).body("test_webhook_secret", nullValue());

        // null: the live address goes (mode null is live); the test address stays
        patch(app, "{\"mode\":null,\"webhook_url\":null}").statusCode(200).body("webhook_url", nullValue())
                .body("test_webhook_url", equalTo("https://bank.example/test-hooks")).body("name", equalTo("Renamed"));
        // empty text removes too, here the test address
        patch(app, "{\"mode\":\"test\",\"webhook_url\":\"\"}").statusCode(200).body("test_webhook_url", nullValue())
                .body("webhook_url", nullValue());
        patch(app, "{\"return_urls\":[]}").statusCode(200).body("return_urls.size()", equalTo(0));
    }

    @Test
    void badFieldsKeepTheirAnswers() {
        String app = given().header("Authorization", ADMIN).contentType(ContentType.JSON)
                .body("{\"name\":\"Shapes\",\"return_urls\":[\"https://bank.example/done\"]}")
                .post("/admin/v1/applications").then().statusCode(201).extract().path("id");
        for (String urls : new String[] {"null", "\"\"", "\" \"", "\"https://bank.example/a\"", "[5]", "[null]", "{}"}) {
            patch(app, "{\"return_urls\":" + urls + "}").statusCode(400).body("error.code", equalTo("INVALID_REQUEST"))
                    .body("error.param", equalTo("return_urls")).body("error.message", equalTo("return_urls must be an array of URLs"));
        }
        patch(app, "{\"name\":5}").statusCode(400).body("error.param", equalTo("name"))
                .body("error.message", equalTo("Invalid value for 'name': expected a string"));
        patch(app, "{\"name\":\"\"}").statusCode(400).body("error.param", equalTo("name"));
        patch(app, "{\"mode\":true}").statusCode(400).body("error.param", equalTo("mode"))
                .body("error.message", equalTo("Invalid value for 'mode': expected a string"));
        patch(app, "{\"mode\":\"staging\"}").statusCode(400).body("error.param", equalTo("mode"));
        patch(app, "{\"webhook_url\":7}").statusCode(400).body("error.param", equalTo("webhook_url"));
        patch(app, "{\"webhook_url\":\"ftp://x.example\"}").statusCode(400).body("error.param", equalTo("webhook_url"));
        patch(app, "{\"colour\":\"red\"}").statusCode(400).body("error.param", equalTo("colour"))
                .body("error.message", equalTo("Unknown field 'colour'"));
        for (String body : new String[] {"[]", "\"name\"", "null"}) {
            patch(app, body).statusCode(400).body("error.code", equalTo("INVALID_REQUEST"))
                    .body("error.message", equalTo("The request body must be a JSON object")).body("error.request_id", notNullValue());
        }
        patch(app, "{}").statusCode(200).body("name", equalTo("Shapes")).body("return_urls[0]", equalTo("https://bank.example/done"));
    }

    private static ValidatableResponse patch(String app, String body) {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(body)
                .patch("/admin/v1/applications/" + app).then();
    }
}
