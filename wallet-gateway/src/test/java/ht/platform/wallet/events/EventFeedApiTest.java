package ht.platform.wallet.events;

import ht.platform.support.testing.FeedReader;
import ht.platform.wallet.TestApi;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.*;
import static org.junit.jupiter.api.Assertions.*;

/** The event feed of the gateway: a pull address, its signed events in commit order, a held read, no pushes. */
@QuarkusTest
class EventFeedApiTest {

    @Test
    void aPullAddressReadsItsSubscribedEventsSignedAndIsNeverPushed() throws Exception {
        String project = TestApi.project("Feed shop " + System.nanoTime());
        String key = TestApi.key(project, "test");
        as(key).body(Map.of("delivery", "pull", "url", "https://example.com/h")).post("/api/v1/webhooks")
                .then().statusCode(400).body("error.param", equalTo("url"));
        JsonPath created = as(key).body(Map.of("delivery", "pull", "events", List.of("payment.created", "payment.succeeded")))
                .post("/api/v1/webhooks").then().statusCode(201).body("delivery", equalTo("pull"))
                .body("url", nullValue()).extract().jsonPath();
        String address = created.getString("id");
        String secret = created.getString("secret");
        as(key).get("/api/v1/webhooks").then().statusCode(200).body("data[0].delivery", equalTo("pull"));
        as(key).post("/api/v1/webhooks/" + address + "/test").then().statusCode(409).body("error.code", equalTo("PULL_ADDRESS"));

        String payment = TestApi.payment(key, 500);
        as(key).post("/api/v1/test_helpers/payments/" + payment + "/succeed").then().statusCode(200);

        FeedReader.Read read = FeedReader.follow(path -> as(key).get(path).then().statusCode(200)
                .body("address", equalTo(address)).extract().jsonPath(), "start", "&wait=2", r -> r.size() >= 2,
                Duration.ofSeconds(10));
        List<Map<String, Object>> events = read.events();
        String cursor = read.cursor();
        assertEquals(List.of("payment.created", "payment.succeeded"), events.stream().map(e -> e.get("type")).toList(),
                "only the address's events (payment.pending is not subscribed), in commit order");
        FeedReader.assertSigned(events, new WebhookVerifier(SignatureScheme.GATEWAY, List.of(secret)),
                (headers, e) -> assertEquals(e.get("type"), headers.get("X-Gateway-Event")));
        as(key).get("/api/v1/webhooks/" + address + "/deliveries").then().statusCode(200).body("data.size()", equalTo(0));

        String from = cursor;
        CompletableFuture<JsonPath> held = CompletableFuture.supplyAsync(() -> as(key)
                .get("/api/v1/events?after=" + from + "&wait=20&types=payment.created").then().statusCode(200)
                .extract().jsonPath());
        Thread.sleep(300);
        long start = System.nanoTime();
        TestApi.payment(key, 700);
        JsonPath woken = held.get(15, TimeUnit.SECONDS);
        assertEquals("payment.created", woken.getString("data[0].type"));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5000);

        // another project's key never sees these events, and a key without webhooks:read cannot read the feed
        String other = TestApi.key(TestApi.project("Other " + System.nanoTime()), "test");
        as(other).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks").then().statusCode(201);
        as(other).get("/api/v1/events?after=start").then().statusCode(200).body("data.size()", equalTo(0));
        as(other).get("/api/v1/events?after=start&address=" + address).then().statusCode(400).body("error.param", equalTo("address"));
        as(TestApi.key(project, "test", "payments:read")).get("/api/v1/events?after=start").then().statusCode(403);
        // the live mode has its own feed
        as(TestApi.key(project, "live")).get("/api/v1/events?after=start").then().statusCode(409)
                .body("error.code", equalTo("NO_WEBHOOK_ADDRESS"));
    }

    @Test
    void theDashboardRegistersAPullAddressAndShowsHowFarBehindItsFeedIs() {
        String project = TestApi.project("Feed board " + System.nanoTime());
        String key = TestApi.key(project, "test");
        String link = given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/projects/" + project + "/dashboard_links").then().statusCode(201).extract().path("url");
        String cookie = given().redirects().follow(false).contentType(ContentType.URLENC)
                .formParam("token", URI.create(link).getQuery().substring("token=".length()))
                .post("/dashboard/session/sign_in").then().statusCode(303).extract().cookie("dash_session");
        String page = given().cookie("dash_session", cookie).get("/dashboard/webhooks").then().statusCode(200).extract().asString();
        Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
        assertTrue(csrf.find());
        given().redirects().follow(false).cookie("dash_session", cookie).contentType(ContentType.URLENC)
                .formParam("csrf", csrf.group(1)).formParam("delivery", "pull").formParam("url", "")
                .formParam("events", "payment.created").post("/dashboard/webhooks").then().statusCode(200)
                .body(containsString("whsec_"));
        String address = as(key).get("/api/v1/webhooks").then().statusCode(200).body("data[0].delivery", equalTo("pull"))
                .extract().path("data[0].id");
        given().cookie("dash_session", cookie).get("/dashboard/webhooks").then().statusCode(200)
                .body(containsString("id=\"pull-" + address + "\"")).body(containsString("id=\"lag-" + address + "\"><strong>0</strong>"));

        String latest = as(key).get("/api/v1/events?after=latest").then().statusCode(200).extract().path("next_cursor");
        TestApi.payment(key, 100);
        TestApi.payment(key, 200);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String shown = "";
        while (!shown.contains("<strong>2</strong>") && System.nanoTime() < until) {
            shown = given().cookie("dash_session", cookie).get("/dashboard/webhooks").then().statusCode(200).extract().asString();
        }
        assertTrue(shown.contains("id=\"lag-" + address + "\"><strong>2</strong>"), "two events behind its cursor: " + latest);
    }
}
