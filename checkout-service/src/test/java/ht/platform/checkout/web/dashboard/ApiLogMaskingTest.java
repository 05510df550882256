package ht.platform.checkout.web.dashboard;

import ht.platform.checkout.TestApi;
import ht.platform.support.testing.Waiting;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static ht.platform.checkout.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 hole 2: the stored answer of {@code POST /api/v1/dashboard_links} showed the sign-in URL in clear on the
 * API log page, and an unused link read there opened a new session. Credentials are masked by their shape wherever
 * a response is stored or shown.
 */
@QuarkusTest
public class ApiLogMaskingTest {

    private static final Pattern CREDENTIAL = Pattern.compile("(dl_|whsec_|co_(test|live)_)[A-Za-z0-9_-]{16,}");

    @Test
    void theApiLogShowsNoSignInLinkNoSecretAndNoKey() {
        String app = TestApi.application("Masking");
        String key = TestApi.key(app, "test", List.of("dashboard:write", "payment_intents:read", "webhooks:manage"));
        String url = as(key).body("{}").post("/api/v1/dashboard_links").then().statusCode(201).extract().path("url");
        String token = URI.create(url).getQuery().substring("token=".length());
        String requestId = as(key).body("{}").post("/api/v1/dashboard_links").then().statusCode(201)
                .extract().header(TestApi.REQUEST_ID);
        var endpoint = as(key).body("{\"url\":\"http://127.0.0.1:9/hooks\"}").post("/api/v1/webhook_endpoints")
                .then().statusCode(201).extract();
        String secret = endpoint.path("secret");
        String lastRequest = endpoint.header(TestApi.REQUEST_ID);

        // the operator's session reads the API logs of the application, as a colleague with the dashboard would
        String opUrl = given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + app + "/dashboard_links").then().statusCode(201).extract().path("url");
        Response r = given().redirects().follow(false).contentType(ContentType.URLENC)
                .formParam("token", URI.create(opUrl).getQuery().substring("token=".length())).post("/dashboard/session/sign_in");
        String cookie = r.getCookie("dash_session");

        awaitLogged(cookie, lastRequest); // the API log is written in batches: the last request's row means all three are in
        String list = awaitLogged(cookie, requestId);
        Matcher seq = Pattern.compile("href=\"/dashboard/api_logs/(\\d+)\"><code>" + requestId).matcher(list);
        assertTrue(seq.find(), list);
        String page = given().cookie("dash_session", cookie).get("/dashboard/api_logs/" + seq.group(1)).then().statusCode(200)
                .extract().asString();
        assertTrue(page.contains("sign_in?token=dl_"), "the link's shape stays readable: " + page);
        assertFalse(CREDENTIAL.matcher(page).find(), page);

        String all = given().cookie("dash_session", cookie).get("/dashboard/api_logs").asString();
        Matcher rows = Pattern.compile("href=\"/dashboard/api_logs/(\\d+)\"").matcher(all);
        int shown = 0;
        while (rows.find()) {
            String one = given().cookie("dash_session", cookie).get("/dashboard/api_logs/" + rows.group(1)).asString();
            assertFalse(one.contains(token) || one.contains(secret) || one.contains(key), one);
            assertFalse(CREDENTIAL.matcher(one).find(), one);
            shown++;
        }
        assertTrue(shown >= 3, all);
        // the first link, never shown anywhere since, still opens its one session
        given().redirects().follow(false).contentType(ContentType.URLENC).formParam("token", token)
                .post("/dashboard/session/sign_in").then().statusCode(303);
    }

    /** The API log is written shortly after the answer (a queue flushed every second): wait for the row. */
    private static String awaitLogged(String cookie, String requestId) {
        return Waiting.await("the API log of " + requestId, Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .until(() -> given().cookie("dash_session", cookie).get("/dashboard/api_logs?request_id=" + requestId).asString(),
                        page -> page.contains(requestId + "</code></a>"));
    }
}
