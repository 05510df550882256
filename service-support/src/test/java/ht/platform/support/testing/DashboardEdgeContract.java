package ht.platform.support.testing;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard's edge in every service (issue 22), from outside as an attacker would probe it: a session can do
 * no more than the key that made its link, {@code dashboard:write} is never granted by default, another site
 * cannot sign a browser in, and the sign-in audit line names who made the link and the client's address. A
 * service's {@code @QuarkusTest} subclass names its pages; its {@code @QuarkusIntegrationTest} subclass runs the
 * same checks against the packaged application.
 */
public abstract class DashboardEdgeContract {

    protected static final String ADMIN = "Bearer test-admin-token";
    protected static final String ATTACKER = "https://attacker.example/h";

    /**
     * The service's dashboard pages the checks use.
     *
     * @param takeoverPath  the dashboard form that points the tenant's webhooks at {@link DashboardEdgeContract#ATTACKER}
     * @param takeoverForm  its fields (no csrf)
     * @param webhooksPage  a dashboard page that shows the tenant's webhook addresses (and needs a permission to see)
     * @param guardedNavIds the navigation ids of the pages that need a permission (none shows for a session without it)
     */
    public record Pages(String takeoverPath, Map<String, String> takeoverForm, String webhooksPage,
                           List<String> guardedNavIds) { }

    private final ServiceTerms terms;
    private final Pages pages;

    protected DashboardEdgeContract(ServiceTerms terms, Pages pages) {
        this.terms = terms;
        this.pages = pages;
    }

    protected String webhooksPage() {
        return pages.webhooksPage();
    }

    /** The log file of the application under test ({@code %test.quarkus.log.file.path}). */
    protected Path logFile() {
        return Path.of("target", "test-app.log");
    }

    protected record Session(String cookie, String csrf, String page) { }

    protected RequestSpecification operator() {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON);
    }

    protected String owner(String name) {
        return operator().body(terms.ownerBody("\"" + name + "\"")).post(terms.ownersPath()).then().statusCode(201)
                .extract().path("id");
    }

    /** A key of the mode; {@code grants} null = the default. */
    protected String key(String owner, String mode, List<String> grants) {
        String body = grants == null ? "{\"mode\":\"" + mode + "\"}"
                : "{\"mode\":\"" + mode + "\",\"" + terms.grantsField() + "\":[" + String.join(",", grants.stream().map(g -> "\"" + g + "\"").toList()) + "]}";
        return operator().body(body).post(terms.ownersPath() + "/" + owner + "/keys").then().statusCode(201).extract().path("key");
    }

    protected static String linkOf(String key, String mode) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body("{\"mode\":\"" + mode + "\"}")
                .post("/api/v1/dashboard_links").then().statusCode(201).extract().path("url");
    }

    protected String operatorLink(String owner, String mode) {
        return operator().body("{\"mode\":\"" + mode + "\"}").post(terms.ownersPath() + "/" + owner + "/dashboard_links")
                .then().statusCode(201).extract().path("url");
    }

    protected static String token(String url) {
        return URI.create(url).getQuery().substring("token=".length());
    }

    protected static Response redeem(String token, Map<String, String> headers) {
        return given().redirects().follow(false).headers(headers).contentType(ContentType.URLENC).formParam("token", token)
                .post("/dashboard/session/sign_in");
    }

    /** Signs in with the link and reads the CSRF token from the page the browser lands on (even an error page). */
    protected static Session signIn(String url, String page) {
        Response r = redeem(token(url), Map.of());
        r.then().statusCode(303);
        String cookie = r.getCookie("dash_session");
        String html = given().cookie("dash_session", cookie).get(page).asString();
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(html);
        assertTrue(m.find(), html);
        return new Session(cookie, m.group(1), html);
    }

    /**
     * Issue 22 hole 1: a live key holding only {@code dashboard:write} (403 on the webhook API) could mint a link, sign
     * in and register an attacker's webhook from the dashboard's form. Now the session carries the key's permissions:
     * the page and the form answer 403, the page shows none of what it may not do, and nothing is registered.
     */
    @Test
    void aSessionCanDoNoMoreThanTheKeyThatMadeItsLink() {
        String owner = owner("Takeover");
        String narrow = key(owner, "live", List.of("dashboard:write"));
        Session s = signIn(linkOf(narrow, "live"), webhooksPage());
        for (String nav : pages.guardedNavIds()) {
            assertFalse(s.page().contains("id=\"" + nav + "\""), "a page hides what the session may not do: " + nav);
        }
        given().cookie("dash_session", s.cookie()).get(webhooksPage()).then().statusCode(403);
        var form = given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                .formParam("csrf", s.csrf());
        pages.takeoverForm().forEach(form::formParam);
        form.post(pages.takeoverPath()).then().statusCode(403).body(not(containsString("whsec_")));

        // the operator's session (every permission) sees the tenant's live webhooks: the attacker's is not there
        Session op = signIn(operatorLink(owner, "live"), webhooksPage());
        for (String nav : pages.guardedNavIds()) {
            assertTrue(op.page().contains("id=\"" + nav + "\""), "the operator's session shows " + nav);
        }
        given().cookie("dash_session", op.cookie()).get(webhooksPage()).then().statusCode(200)
                .body(not(containsString("attacker.example")));
    }

    /** A key issued without an explicit list holds every grant but {@code dashboard:write}, test keys included. */
    @Test
    void dashboardWriteIsNeverGrantedByDefault() {
        String owner = owner("Defaults");
        for (String mode : List.of("live", "test")) {
            List<String> grants = operator().body("{\"mode\":\"" + mode + "\"}").post(terms.ownersPath() + "/" + owner + "/keys")
                    .then().statusCode(201).extract().path(terms.grantsField());
            assertFalse(grants.contains("dashboard:write"), grants.toString());
            assertFalse(grants.isEmpty());
            String key = key(owner, mode, null);
            given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body("{}")
                    .post("/api/v1/dashboard_links").then().statusCode(403).body(containsString("dashboard:write"));
        }
        String asked = key(owner, "test", List.of("dashboard:write"));
        linkOf(asked, "test");
    }

    /** Hole 4: a cross-site POST cannot sign a browser in (login CSRF); the link stays unspent for its owner. */
    @Test
    void signInRefusesCrossSitePostsAndKeepsSameSiteAndPlainClients() {
        String owner = owner("CrossSite");
        String url = operatorLink(owner, "test");
        String t = token(url);
        redeem(t, Map.of("Origin", "https://evil.example")).then().statusCode(403).header("Set-Cookie", (String) null);
        redeem(t, Map.of("Sec-Fetch-Site", "cross-site")).then().statusCode(403);
        redeem(t, Map.of("Origin", "null")).then().statusCode(403);
        redeem(t, Map.of("Sec-Fetch-Site", "cross-site", "Origin", "null")).then().statusCode(403);
        // the same page's button still works with the unspent link: a browser says same-origin, and sends
        // "Origin: null" because the page has no referrer policy to give
        redeem(t, Map.of("Sec-Fetch-Site", "same-origin", "Origin", "null")).then().statusCode(303);
        // a browser without Sec-Fetch-Site, from our own origin
        String host = URI.create(url).getRawAuthority();
        redeem(token(operatorLink(owner, "test")), Map.of("Origin", URI.create(url).getScheme() + "://" + host))
                .then().statusCode(303);
        // and a client that sends neither header (curl, an old browser)
        redeem(token(operatorLink(owner, "test")), Map.of()).then().statusCode(303);
        redeem(token(operatorLink(owner, "test")), Map.of("Sec-Fetch-Site", "none")).then().statusCode(303);
    }

    /** Hole 5: the sign-in audit line names the key (or operator) that made the link and the client's address. */
    @Test
    void theSignInAuditLineNamesTheMinterAndTheClient() throws Exception {
        String owner = owner("Audit");
        var issued = operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[\"dashboard:write\"]}")
                .post(terms.ownersPath() + "/" + owner + "/keys").then().statusCode(201).extract();
        String key = issued.path("key");
        String keyId = issued.path("id");
        String url = linkOf(key, "test");
        String requestId = redeem(token(url), Map.of()).then().statusCode(303).extract().header(terms.requestIdHeader());
        String line = awaitLine(requestId, "action=sign_in");
        assertTrue(line.contains("outcome=ok"), line);
        assertTrue(line.contains("by=key:" + keyId + " "), line);
        assertTrue(line.matches(".*client=(127\\.0\\.0\\.1|0:0:0:0:0:0:0:1|::1).*"), line);
        assertFalse(line.contains(token(url)), "never the link itself");

        String op = operatorLink(owner, "test");
        String opRequest = redeem(token(op), Map.of()).then().statusCode(303).extract().header(terms.requestIdHeader());
        assertTrue(awaitLine(opRequest, "action=sign_in").contains("by=operator"));
        String refused = redeem(token(op), Map.of()).then().statusCode(403).extract().header(terms.requestIdHeader());
        String refusal = awaitLine(refused, "action=sign_in");
        assertTrue(refusal.contains("outcome=refused") && refusal.contains("client="), refusal);
    }

    private String awaitLine(String requestId, String marker) throws Exception {
        // the log file is written asynchronously: waiting for the line, not for time to pass
        return Waiting.until("no '" + marker + "' line for " + requestId + " in " + logFile().toAbsolutePath(), () -> {
            if (!Files.exists(logFile())) {
                return java.util.Optional.<String>empty();
            }
            try (var lines = Files.lines(logFile())) {
                return lines.filter(l -> l.contains(requestId) && l.contains(marker)).findFirst();
            }
        }, java.util.Optional::isPresent).get();
    }
}
