package ht.platform.kyc;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.util.UUID;

import static io.restassured.RestAssured.given;

/** Creates applications and keys through the operator API, as a client would be onboarded. */
public final class Fixtures {

    public static final String ADMIN = "Bearer test-admin-token";

    /**
     * An application; {@code webhookSecret} signs its live events, {@code testWebhookSecret} its test events, the feed
     * secrets its event feeds.
     */
    public record App(String id, String webhookSecret, String testWebhookSecret, String testKey, String liveKey,
                      String feedSecret, String testFeedSecret) { }

    private Fixtures() { }

    /** An application whose live and test events both go to {@code webhookUrl} (each signed with its own mode's secret). */
    public static App app(String webhookUrl) {
        return app(webhookUrl, webhookUrl);
    }

    public static App app(String webhookUrl, String testWebhookUrl) {
        String body = "{\"name\":\"Test app\",\"return_urls\":[\"https://client.example/done\",\"http://127.0.0.1:9/back\"]"
                + (webhookUrl == null ? "" : ",\"webhook_url\":\"" + webhookUrl + "\"")
                + (testWebhookUrl == null ? "" : ",\"test_webhook_url\":\"" + testWebhookUrl + "\"") + "}";
        var created = given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(body)
                .post("/admin/v1/applications").then().statusCode(201).extract();
        String id = created.path("id");
        return new App(id, created.path("webhook_secret"), created.path("test_webhook_secret"), key(id, "test"), key(id, "live"),
                created.path("feed_secret"), created.path("test_feed_secret"));
    }

    public static String key(String app, String mode) {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"" + mode + "\"}")
                .post("/admin/v1/applications/" + app + "/keys").then().statusCode(201).extract().path("key");
    }

    public static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    public static String create(String key, String externalUserId) {
        return createWith(key, "{\"external_user_id\":\"" + externalUserId + "\"}");
    }

    public static String createWith(String key, String json) {
        return as(key).header("Idempotency-Key", UUID.randomUUID().toString()).body(json)
                .post("/api/v1/verifications").then().statusCode(200).extract().path("id");
    }

    public static io.restassured.response.ExtractableResponse<io.restassured.response.Response> createFull(String key, String json) {
        return as(key).header("Idempotency-Key", UUID.randomUUID().toString()).body(json)
                .post("/api/v1/verifications").then().statusCode(200).extract();
    }

    public static void complete(String key, String id, String outcome) {
        as(key).body("{\"outcome\":\"" + outcome + "\"}").post("/api/v1/test_helpers/verifications/" + id + "/complete")
                .then().statusCode(200);
    }

    /**
     * A live passport verification through the hosted flow over HTTP, as a browser posts it: open, consent, document
     * photo, selfie; the page then shows the decision. Answers the verification id.
     */
    public static String live(String liveKey, String externalUserId, byte[] front, byte[] selfie) {
        return live(liveKey, externalUserId, "passport", front, null, selfie);
    }

    /** The same for the one requested {@code documentType}; {@code back} is uploaded when not null (a card's back). */
    public static String live(String liveKey, String externalUserId, String documentType, byte[] front, byte[] back, byte[] selfie) {
        var noRedirects = io.restassured.RestAssured.config()
                .redirect(io.restassured.config.RedirectConfig.redirectConfig().followRedirects(false));
        var created = createFull(liveKey, "{\"external_user_id\":\"" + externalUserId + "\",\"document_types\":[\"" + documentType + "\"]}");
        String path = java.net.URI.create(created.path("verification_url")).getPath();
        given().get(path).then().statusCode(200);
        given().config(noRedirects).formParam("decision", "accept").post(path + "/consent").then().statusCode(303);
        var document = given().config(noRedirects).multiPart("front", "front", front, contentType(front));
        if (back != null) {
            document = document.multiPart("back", "back", back, contentType(back));
        }
        document.post(path + "/document").then().statusCode(303)
                .header("Location", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("error")));
        given().config(noRedirects).multiPart("selfie", "selfie", selfie, contentType(selfie))
                .post(path + "/selfie").then().statusCode(303).header("Location", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("error")));
        given().get(path).then().statusCode(200).body(org.hamcrest.Matchers.containsString("id=\"result\""));
        return created.path("id");
    }

    private static String contentType(byte[] image) {
        return (image[0] & 0xff) == 0xff ? "image/jpeg" : "image/png";
    }
}
