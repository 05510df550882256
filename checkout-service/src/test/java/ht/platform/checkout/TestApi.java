package ht.platform.checkout;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** Creates applications and keys through the operator API, and calls the public API with a key. */
public final class TestApi {

    public static final String ADMIN = "Bearer test-admin-token";
    public static final String REQUEST_ID = "Checkout-Request-Id";

    private TestApi() { }

    public static String application(String name) {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/admin/v1/applications").then().statusCode(201).extract().path("id");
    }

    public static String key(String app, String mode, List<String> scopes) {
        Map<String, Object> body = scopes == null ? Map.of("mode", mode) : Map.of("mode", mode, "scopes", scopes);
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(body)
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(201).extract().path("key");
    }

    public static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    public static String createIntent(String key, String amount) {
        return as(key).body(Map.of("amount", amount, "currency", "HTG", "external_reference", "order-1"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract().path("id");
    }

    public static ValidatableResponse simulate(String key, String id, String outcome) {
        return as(key).body(Map.of("payment_method", "test_card", "outcome", outcome))
                .post("/api/v1/test_helpers/payment_intents/" + id + "/simulate").then();
    }

    public static String paidIntent(String key, String amount) {
        String id = createIntent(key, amount);
        simulate(key, id, "succeeded").statusCode(200);
        return id;
    }

    /** A customer in a fresh browser session: opens the link's page, then presses its button; answers the 303 location. */
    public static String openLink(String linkId) {
        var page = given().get("/pay/l/" + linkId).then().statusCode(200).extract();
        String nonce = linkNonce(page.asString());
        return given().redirects().follow(false).cookie("link_nonce", page.cookie("link_nonce")).formParam("nonce", nonce)
                .post("/pay/l/" + linkId).then().statusCode(303).extract().header("Location");
    }

    /** The nonce of a link page's form. */
    public static String linkNonce(String html) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("name=\"nonce\" value=\"([A-Za-z0-9_-]+)\"").matcher(html);
        if (!m.find()) {
            throw new AssertionError("no nonce in the link page");
        }
        return m.group(1);
    }
}
