package ht.platform.wallet.web;

import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import ht.platform.support.testing.MonCashBrowser;
import ht.platform.support.testing.MonCashStandIn;
import ht.platform.support.testing.ReturnGateContract;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static ht.platform.support.testing.MonCashBrowser.moncashToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 hole 3: without any cookie, {@code GET /wallet/moncash/return?transactionId=<someone else's>} redirected
 * to that customer's page (merchant, reference, amount, "Paid"), and each anonymous call spent a MonCash call on
 * the merchant's credentials. Now only the browser that left for MonCash from the page sees it; anyone else gets a
 * neutral page, costs MonCash nothing, and has a small budget of returns per address.
 */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
public class MonCashReturnTest {

    record Pay(String id, String token, String reference) { }

    private static Pay payment(String key, long amount) {
        String reference = "order-" + System.nanoTime();
        ExtractableResponse<Response> r = as(key).body(Map.of("amount", amount, "currency", "HTG", "reference", reference))
                .post("/api/v1/payments").then().statusCode(201).extract();
        String url = r.path("wallet_url");
        return new Pay(r.path("id"), url.substring(url.lastIndexOf('/') + 1), reference);
    }

    private final MonCashBrowser browser = new MonCashBrowser("gw_moncash", "/wallet/moncash/return");

    /** The customer presses "Pay with MonCash". Answers the MonCash token of the page the browser is sent to. */
    private String leaveForMonCash(Pay p) {
        return moncashToken(browser.leave(p.token(), "/wallet/" + p.token() + "/moncash", Map.of()));
    }

    private static void assertNeutral(String html, Pay p, String merchant) {
        assertTrue(html.contains("id=\"checking\""), html);
        assertFalse(html.contains(p.token()) || html.contains(p.reference()) || html.contains(merchant)
                || html.contains("1 025") || html.contains("1025") || html.contains("wpt_"), html);
    }

    @Test
    void aReturnShowsAPaymentOnlyToTheBrowserThatStartedIt() {
        MonCashSandbox sandbox = MonCashStandIn.sandbox();
        String merchant = "Victim shop " + System.nanoTime();
        String victimKey = TestApi.key(TestApi.project(merchant), "live");
        Pay victim = payment(victimKey, 1000);
        String tx = sandbox.pay(leaveForMonCash(victim), "50937001111");
        int lookups = sandbox.calls("RetrieveTransactionPayment");

        // an attacker with no cookie, again and again: a neutral page, and not one call to MonCash
        for (int i = 0; i < 5; i++) {
            String html = given().redirects().follow(false).queryParam("transactionId", tx).get("/wallet/moncash/return")
                    .then().statusCode(200).header("Location", (String) null).header("Cache-Control", "no-store")
                    .extract().asString();
            assertNeutral(html, victim, merchant);
        }
        given().redirects().follow(false).get("/wallet/moncash/return").then().statusCode(200).body(containsString("id=\"checking\""));
        assertEquals(lookups, sandbox.calls("RetrieveTransactionPayment"), "anonymous returns cost MonCash nothing");

        // an attacker with a cookie of a payment of their own, naming the victim's transaction: still neutral
        String attackerKey = TestApi.key(TestApi.project("Attacker " + System.nanoTime()), "live");
        Pay own = payment(attackerKey, 50);
        leaveForMonCash(own);
        String ownCookie = browser.cookie(own.token());
        String html = given().redirects().follow(false).cookie("gw_moncash", ownCookie).queryParam("transactionId", tx)
                .get("/wallet/moncash/return").then().statusCode(200).header("Location", (String) null).extract().asString();
        assertNeutral(html, victim, merchant);

        // the victim's own browser goes back to the payment's page, settled from MonCash's record
        // a made-up cookie, however well-formed (the victim's page token itself), names nothing and costs MonCash nothing
        int before = sandbox.calls("RetrieveTransactionPayment");
        for (String forged : java.util.List.of(victim.token(), "wpt_" + "A".repeat(43), ownCookie.substring(0, ownCookie.length() - 2) + "AA")) {
            assertNeutral(given().redirects().follow(false).cookie("gw_moncash", forged).queryParam("transactionId", tx)
                    .get("/wallet/moncash/return").then().statusCode(200).extract().asString(), victim, merchant);
        }
        assertEquals(before, sandbox.calls("RetrieveTransactionPayment"), "forged cookies cost MonCash nothing");

        browser.comeBack(victim.token(), "/wallet/" + victim.token(), tx);
        assertEquals("succeeded", as(victimKey).get("/api/v1/payments/" + victim.id()).then().extract().path("status"));
    }

    @Test
    void returnsAreLimitedPerClientAddress() {
        ReturnGateContract.returnsAreLimitedPerClientAddress("/wallet/moncash/return");
    }
}
