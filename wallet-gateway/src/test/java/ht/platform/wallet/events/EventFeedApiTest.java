package ht.platform.wallet.events;

import ht.platform.support.testing.FeedReader;
import ht.platform.support.testing.Waiting;
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
        int heldBefore = waiters.held();
        CompletableFuture<JsonPath> held = CompletableFuture.supplyAsync(() -> as(key)
                .get("/api/v1/events?after=" + from + "&wait=20&types=payment.created").then().statusCode(200)
                .extract().jsonPath());
        Waiting.until("the read held", () -> waiters.held() > heldBefore);
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
                .body("error.code", equalTo("NO_PULL_ADDRESS"));
    }

    @Test
    void aReadOnlyKeysEntriesNeverVerifyWithAPushSecretOfItsProject() throws Exception {
        String project = TestApi.project("Feed oracle " + System.nanoTime());
        String manager = TestApi.key(project, "test");
        String reader = TestApi.key(project, "test", "webhooks:read");
        List<String> pushSecrets = new java.util.ArrayList<>();
        List<String> pushIds = new java.util.ArrayList<>();
        for (String url : List.of("https://example.com/hooks", "https://example.org/other")) {
            JsonPath push = as(manager).body(Map.of("url", url, "events", List.of("payment.succeeded")))
                    .post("/api/v1/webhooks").then().statusCode(201)
                    .body("delivery", equalTo("push")).extract().jsonPath();
            pushSecrets.add(push.getString("secret"));
            pushIds.add(push.getString("id"));
        }
        // with push addresses only there is nothing the feed may sign with
        as(reader).get("/api/v1/events?after=start").then().statusCode(409).body("error.code", equalTo("NO_PULL_ADDRESS"));
        for (String id : pushIds) {
            as(reader).get("/api/v1/events?after=start&address=" + id).then().statusCode(400)
                    .body("error.param", equalTo("address")).body("error.message", containsString("pushed"));
        }
        JsonPath pull = as(manager).body(Map.of("delivery", "pull", "events", List.of("payment.created", "payment.succeeded")))
                .post("/api/v1/webhooks").then().statusCode(201)
                .extract().jsonPath();
        String payment = TestApi.payment(manager, 900);
        as(manager).post("/api/v1/test_helpers/payments/" + payment + "/succeed").then().statusCode(200);

        List<Map<String, Object>> events = FeedReader.follow(path -> as(reader).get(path).then().statusCode(200)
                        .body("address", equalTo(pull.getString("id"))).extract().jsonPath(), "start", "&wait=2",
                r -> r.stream().anyMatch(e -> "payment.succeeded".equals(e.get("type"))), Duration.ofSeconds(10)).events();
        assertFalse(events.isEmpty());
        WebhookVerifier pushed = new WebhookVerifier(SignatureScheme.GATEWAY, pushSecrets);
        FeedReader.assertSigned(events, new WebhookVerifier(SignatureScheme.GATEWAY, List.of(pull.getString("secret"))),
                (headers, e) -> assertFalse(pushed.verify(headers, ((String) e.get("body"))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)).valid(), "no push secret verifies " + e.get("id")));
    }

    @Test
    void heldReadsAreLimitedPerKeyAndPerProjectWith429AndOtherProjectsReadAtOnce() throws Exception {
        String project = TestApi.project("Feed flood " + System.nanoTime());
        String manager = TestApi.key(project, "test");
        String first = TestApi.key(project, "test", "webhooks:read");
        String second = TestApi.key(project, "test", "webhooks:read");
        as(manager).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks")
                .then().statusCode(201);
        String cursor = as(first).get("/api/v1/events?after=latest").then().statusCode(200).extract().path("next_cursor");
        String held = "/api/v1/events?after=" + cursor + "&wait=30";
        int before = waiters.held();
        List<CompletableFuture<Integer>> reads = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            reads.add(CompletableFuture.supplyAsync(() -> as(first).get(held).then().extract().statusCode()));
        }
        awaitHeld(before + 3);
        as(first).get(held).then().statusCode(429).header("Retry-After", notNullValue())
                .body("error.code", equalTo("TOO_MANY_FEED_READS")).body("error.message", containsString("API key"));
        // the project's other key still reads, up to the project's limit of 4
        as(second).get("/api/v1/events?after=" + cursor).then().statusCode(200);
        reads.add(CompletableFuture.supplyAsync(() -> as(second).get(held).then().extract().statusCode()));
        awaitHeld(before + 4);
        as(second).get(held).then().statusCode(429).body("error.message", containsString("account"));
        // another project is not held back by this one
        String other = TestApi.key(TestApi.project("Feed neighbour " + System.nanoTime()), "test");
        as(other).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks").then().statusCode(201);
        long start = System.nanoTime();
        as(other).get("/api/v1/events?after=start").then().statusCode(200);
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5000);

        TestApi.payment(manager, 100); // answers every held read
        for (CompletableFuture<Integer> read : reads) {
            assertEquals(200, read.get(20, TimeUnit.SECONDS));
        }
        as(first).get("/api/v1/events?after=" + cursor).then().statusCode(200).body("data.size()", equalTo(1));
    }

    @Test
    void aCursorIsSealedToItsProjectAndModeAndAForgedOneNeverPinsTheAddress() {
        String project = TestApi.project("Feed cursor " + System.nanoTime());
        String key = TestApi.key(project, "test");
        as(key).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks").then().statusCode(201);
        TestApi.payment(key, 100);
        String cursor = FeedReader.follow(path -> as(key).get(path).then().statusCode(200).extract().jsonPath(), "start",
                "&wait=2", r -> !r.isEmpty(), Duration.ofSeconds(10)).cursor();
        String inside = new String(java.util.Base64.getUrlDecoder().decode(cursor.substring("cur_".length())),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(inside.matches("f1\\.[0-9]+"), "no readable position in the cursor: " + inside);
        String other = TestApi.key(TestApi.project("Cursor thief " + System.nanoTime()), "test");
        as(other).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks").then().statusCode(201);
        as(other).get("/api/v1/events?after=" + cursor).then().statusCode(400).body("error.param", equalTo("after"));
        as(TestApi.key(project, "live")).get("/api/v1/events?after=" + cursor).then().statusCode(400);

        String forged = "cur_" + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("f1." + Long.MAX_VALUE).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        as(key).get("/api/v1/events?after=" + forged).then().statusCode(400).body("error.param", equalTo("after"));
        TestApi.payment(key, 200);
        as(key).get("/api/v1/events?after=" + cursor + "&wait=5").then().statusCode(200).body("data.size()", equalTo(1));
    }

    @jakarta.inject.Inject
    ht.platform.support.feed.FeedWaiters waiters;

    void awaitHeld(int n) {
        Waiting.until(n + " reads held", Duration.ofSeconds(15), () -> waiters.held() >= n);
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
        String shown = Waiting.until("the lag shown", () -> given().cookie("dash_session", cookie).get("/dashboard/webhooks")
                .then().statusCode(200).extract().asString(), answer -> answer.contains("<strong>2</strong>"));
        assertTrue(shown.contains("id=\"lag-" + address + "\"><strong>2</strong>"), "two events behind its cursor: " + latest);
    }
}
