package ht.platform.wallet.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import ht.platform.support.testing.ServiceTerms;
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

    public DashboardEdgeTest() {
        super(ServiceTerms.WALLET, new Pages("/dashboard/webhooks", Map.of("url", ATTACKER, "events", "payment.succeeded"),
                "/dashboard/webhooks", List.of("nav-webhooks", "nav-deliveries", "nav-payments", "nav-withdrawals", "nav-balance")));
    }

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
