package ht.platform.wallet.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import io.quarkus.test.junit.QuarkusTest;

import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dashboard's edge (issue 22) in the gateway: the webhook register form is the takeover a session must not do. */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    @Override
    protected String ownersPath() { return "/admin/v1/projects"; }

    @Override
    protected String grantsField() { return "permissions"; }

    @Override
    protected String takeoverPath() { return "/dashboard/webhooks"; }

    @Override
    protected Map<String, String> takeoverForm() { return Map.of("url", ATTACKER, "events", "payment.succeeded"); }

    @Override
    protected String webhooksPage() { return "/dashboard/webhooks"; }

    @Override
    protected List<String> guardedNavIds() {
        return List.of("nav-webhooks", "nav-deliveries", "nav-payments", "nav-withdrawals", "nav-balance");
    }

    @Override
    protected String requestIdHeader() { return "X-Gateway-Request-Id"; }

    /** A key that may read webhooks but not change them: the pages show, their forms do not, and a POST is 403. */
    @Test
    void aReadOnlySessionSeesThePagesWithoutTheirActions() {
        String owner = owner("Read only");
        String key = key(owner, "live", List.of("dashboard:write", "webhooks:read"));
        Session s = signIn(linkOf(key, "live"), webhooksPage());
        assertTrue(s.page().contains("id=\"nav-webhooks\"") && s.page().contains("id=\"nav-deliveries\""), s.page());
        assertFalse(s.page().contains("id=\"register\"") || s.page().contains("id=\"nav-balance\""), s.page());
        given().cookie("dash_session", s.cookie()).get("/dashboard/balance").then().statusCode(403);
        given().redirects().follow(false).cookie("dash_session", s.cookie()).contentType(ContentType.URLENC)
                .formParam("csrf", s.csrf()).formParam("url", ATTACKER).formParam("events", "payment.succeeded")
                .post("/dashboard/webhooks").then().statusCode(403).body(not(containsString("whsec_")));
        given().header("Authorization", "Bearer " + key).get("/api/v1/webhooks").then().statusCode(200)
                .body(not(containsString("attacker.example")));
    }
}
