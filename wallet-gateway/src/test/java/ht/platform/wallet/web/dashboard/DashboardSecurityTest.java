package ht.platform.wallet.web.dashboard;

import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.support.testing.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dashboard's locks: single-use short-lived links, the session cookie, CSRF, CSP and tenant isolation. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class DashboardSecurityTest {

    static final String CSP = "default-src 'none'; img-src 'self'; frame-ancestors 'none'; base-uri 'none';"
            + " style-src 'self'; form-action 'self'";

    @Inject
    MovableClock clock;


    /** A session of the project: {cookie value, csrf token}. */
    record Session(String cookie, String csrf) { }

    static String link(String project) {
        return given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/projects/" + project + "/dashboard_links").then().statusCode(201)
                .body("object", equalTo("dashboard_link")).body("mode", equalTo("test"))
                .extract().path("url");
    }

    static String token(String url) {
        return URI.create(url).getQuery().substring("token=".length());
    }

    static Response redeem(String token) {
        return given().redirects().follow(false).contentType(ContentType.URLENC).formParam("token", token)
                .post("/dashboard/session/sign_in");
    }

    static Session signIn(String project) {
        Response r = redeem(token(link(project)));
        r.then().statusCode(303).header("Location", containsString("/dashboard"));
        String setCookie = r.getHeader("Set-Cookie");
        assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/dashboard"),
                setCookie);
        String cookie = r.getCookie("dash_session");
        String page = given().cookie("dash_session", cookie).get("/dashboard/webhooks").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
        assertTrue(m.find(), "every form carries the CSRF token");
        return new Session(cookie, m.group(1));
    }

    @Test
    void aLinkOpensOneSessionOnlyOnceAndOnlyBeforeItExpires() {
        String project = TestApi.project("Links");
        String url = link(project);
        assertTrue(url.contains("/dashboard/session/sign_in?token=dl_"), url);
        // opening the link only shows the button; the POST spends it
        given().get(URI.create(url).getPath() + "?" + URI.create(url).getQuery()).then().statusCode(200)
                .body(containsString("id=\"sign-in\""));
        String token = token(url);
        redeem(token).then().statusCode(303);
        redeem(token).then().statusCode(403).body(containsString("id=\"refused\""));

        String late = token(link(project));
        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        redeem(late).then().statusCode(403).body(containsString("id=\"refused\""));
        redeem("dl_" + "A".repeat(43)).then().statusCode(403);
        redeem(null).then().statusCode(403);
    }

    @Test
    void sessionsEndOnSignOutAfterIdleTimeAndAtTheirAbsoluteEnd() {
        String project = TestApi.project("Sessions");
        Session s = signIn(project);
        given().redirects().follow(false).get("/dashboard/webhooks").then().statusCode(303)
                .header("Location", containsString("/dashboard/session/sign_in"));
        given().redirects().follow(false).cookie("dash_session", "forged").get("/dashboard/webhooks").then().statusCode(303);

        clock.advance(Duration.ofMinutes(29));
        given().cookie("dash_session", s.cookie()).get("/dashboard/webhooks").then().statusCode(200);
        clock.advance(Duration.ofMinutes(29));
        given().cookie("dash_session", s.cookie()).get("/dashboard/webhooks").then().statusCode(200);
        clock.advance(Duration.ofMinutes(31));
        given().redirects().follow(false).cookie("dash_session", s.cookie()).get("/dashboard/webhooks").then().statusCode(303);

        Session t = signIn(project);
        for (int i = 0; i < 25; i++) {
            clock.advance(Duration.ofMinutes(29));
            given().cookie("dash_session", t.cookie()).get("/dashboard/balance").then().statusCode(200);
        }
        clock.advance(Duration.ofMinutes(29));
        given().redirects().follow(false).cookie("dash_session", t.cookie()).get("/dashboard/balance").then().statusCode(303);

        Session u = signIn(project);
        given().redirects().follow(false).cookie("dash_session", u.cookie()).contentType(ContentType.URLENC)
                .formParam("csrf", u.csrf()).post("/dashboard/session/sign_out").then().statusCode(303);
        given().redirects().follow(false).cookie("dash_session", u.cookie()).get("/dashboard/webhooks").then().statusCode(303);
    }

    @Test
    void everyFormNeedsTheSessionsCsrfToken() throws Exception {
        String project = TestApi.project("Csrf");
        String key = TestApi.key(project, "test");
        try (Receiver rx = new Receiver()) {
            String webhook = as(key).body(Map.of("url", rx.url(), "events", List.of("payment.created")))
                    .post("/api/v1/webhooks").then().statusCode(201).extract().path("id");
            Session s = signIn(project);
            Session other = signIn(project);
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("x", "1").post("/dashboard/webhooks/" + webhook + "/test").then().statusCode(403);
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", other.csrf()).post("/dashboard/webhooks/" + webhook + "/test").then().statusCode(403);
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).formParam("mode", "live").post("/dashboard/session/mode").then().statusCode(303);
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).formParam("mode", "test").post("/dashboard/session/mode").then().statusCode(303);
            assertEquals(0, rx.received.size(), "no refused form had any effect");
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).post("/dashboard/webhooks/" + webhook + "/test").then().statusCode(303)
                    .header("Location", containsString("done=test_sent"));
            Receiver.await("the ping", Duration.ofSeconds(15), () -> rx.ofType("webhook.ping").size() == 1);
        }
    }

    @Test
    void aSessionCannotReachAnotherTenantsObjects() throws Exception {
        String mine = TestApi.project("Mine");
        String theirs = TestApi.project("Theirs");
        String theirKey = TestApi.key(theirs, "test");
        try (Receiver rx = new Receiver()) {
            String webhook = as(theirKey).body(Map.of("url", rx.url(), "events", List.of("payment.created")))
                    .post("/api/v1/webhooks").then().statusCode(201).extract().path("id");
            TestApi.payment(theirKey, 100);
            Receiver.await("their delivery", Duration.ofSeconds(15), () -> rx.received.size() == 1);
            String delivery = as(theirKey).get("/api/v1/webhooks/" + webhook + "/deliveries").then().statusCode(200)
                    .extract().path("data[0].id");
            Session s = signIn(mine);
            given().cookie("dash_session", s.cookie()).get("/dashboard/deliveries/" + delivery).then().statusCode(404)
                    .body(containsString("id=\"error\""));
            given().cookie("dash_session", s.cookie()).get("/dashboard/webhooks/" + webhook).then().statusCode(404);
            given().cookie("dash_session", s.cookie()).get("/dashboard/deliveries?webhook=" + webhook).then().statusCode(200)
                    .body(containsString("id=\"no-deliveries\""));
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).post("/dashboard/deliveries/" + delivery + "/resend").then().statusCode(404);
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).post("/dashboard/webhooks/" + webhook + "/delete").then().statusCode(404);
            as(theirKey).get("/api/v1/webhooks/" + webhook).then().statusCode(200);
            // the live mode of the same tenant is another world too
            given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", s.csrf()).formParam("mode", "live").post("/dashboard/session/mode").then().statusCode(303);
            Session theirsSession = signIn(theirs);
            given().redirects().follow(false).cookie("dash_session", theirsSession.cookie()).contentType(ContentType.URLENC)
                    .formParam("csrf", theirsSession.csrf()).formParam("mode", "live").post("/dashboard/session/mode").then().statusCode(303);
            given().cookie("dash_session", theirsSession.cookie()).get("/dashboard/deliveries/" + delivery).then().statusCode(404);
        }
    }

    @Test
    void pagesSendAStrictContentSecurityPolicy() {
        Session s = signIn(TestApi.project("Headers"));
        for (String path : List.of("/dashboard/webhooks", "/dashboard/deliveries", "/dashboard/payments",
                "/dashboard/withdrawals", "/dashboard/balance")) {
            given().cookie("dash_session", s.cookie()).get(path).then().statusCode(200)
                    .header("Content-Security-Policy", equalTo(CSP))
                    .header("X-Frame-Options", equalTo("DENY"))
                    .header("X-Content-Type-Options", equalTo("nosniff"))
                    .header("Referrer-Policy", equalTo("no-referrer"))
                    .header("Cache-Control", equalTo("no-store"))
                    .body(containsString("<link rel=\"stylesheet\" href=\"/dashboard/assets/dashboard.css\">"))
                    .body(org.hamcrest.Matchers.not(containsString("<script")))
                    .body(org.hamcrest.Matchers.not(containsString("style=")));
        }
        given().get("/dashboard/session/sign_in").then().statusCode(200).header("Content-Security-Policy", equalTo(CSP));
        given().get("/dashboard/assets/dashboard.css").then().statusCode(200).contentType(startsWith("text/css"))
                .header("Content-Security-Policy", equalTo(CSP));
    }

    @Test
    void theMerchantsBackendMakesLinksWithTheDashboardPermission() {
        String project = TestApi.project("Backend");
        String withPermission = TestApi.key(project, "live", "dashboard:write");
        String without = TestApi.key(project, "live", "webhooks:read");
        String testKey = TestApi.key(project, "test", "dashboard:write", "balance:read");
        String url = as(withPermission).body("{}").post("/api/v1/dashboard_links").then().statusCode(201)
                .body("mode", equalTo("live")).extract().path("url");
        redeem(token(url)).then().statusCode(303);
        as(without).body("{}").post("/api/v1/dashboard_links").then().statusCode(403)
                .body("error.code", equalTo("PERMISSION_DENIED"));
        as(testKey).body("{\"mode\":\"live\"}").post("/api/v1/dashboard_links").then().statusCode(400)
                .body("error.param", equalTo("mode"));
        // a session opened with a test key's link never switches to live
        Response r = redeem(token(as(testKey).body("{}").post("/api/v1/dashboard_links").then().statusCode(201)
                .body("mode", equalTo("test")).extract().path("url")));
        String cookie = r.getCookie("dash_session");
        String page = given().cookie("dash_session", cookie).get("/dashboard/balance").then().statusCode(200).extract().asString();
        assertTrue(!page.contains("name=\"mode\" value=\"live\""), "no live switch for a test-key session");
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
        assertTrue(m.find());
        given().redirects().follow(false).cookie("dash_session", cookie).contentType(ContentType.URLENC)
                .formParam("csrf", m.group(1)).formParam("mode", "live").post("/dashboard/session/mode").then().statusCode(403);
        given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/projects/proj_000000000000000000000000/dashboard_links").then().statusCode(404);
        given().contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/projects/" + project + "/dashboard_links").then().statusCode(401);
        assertNotNull(url);
    }
}
