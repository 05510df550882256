package ht.platform.checkout.web;

import ht.platform.checkout.TestApi;
import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import ht.platform.support.testing.MonCashBrowser;
import ht.platform.support.testing.MonCashStandIn;
import ht.platform.support.testing.ReturnGateContract;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static ht.platform.support.testing.MonCashBrowser.moncashToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 hole 3 in checkout: {@code GET /pay/moncash/return?transactionId=<someone else's>} led to that customer's
 * payment page and spent MonCash calls on the merchant's credentials. Now only the browser that left for MonCash from
 * the page sees it; anyone else gets a neutral page, costs MonCash nothing, and has a small budget per address.
 */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
public class MonCashReturnTest {

    record Intent(String id, String session, String reference) { }

    private static Intent intent(String key, String amount) {
        String reference = "order-" + System.nanoTime();
        ExtractableResponse<Response> r = as(key).body(Map.of("amount", amount, "currency", "HTG", "external_reference", reference))
                .post("/api/v1/payment_intents").then().statusCode(201).extract();
        String url = r.path("checkout_url");
        return new Intent(r.path("id"), url.substring(url.lastIndexOf('/') + 1), reference);
    }

    private final MonCashBrowser browser = new MonCashBrowser("co_rail_session", "/pay/moncash/return");

    /** The customer chooses MonCash. Answers the MonCash token of the page the browser is sent to. */
    private String leaveForMonCash(Intent i) {
        return moncashToken(browser.leave(i.session(), "/pay/" + i.session() + "/pay", Map.of("payment_method", "moncash")));
    }

    private static void assertNeutral(String html, Intent i) {
        assertTrue(html.contains("id=\"checking\""), html);
        assertFalse(html.contains(i.session()) || html.contains(i.reference()) || html.contains(i.id()) || html.contains("pay_cs_"), html);
    }

    @Test
    void aReturnShowsAPaymentOnlyToTheBrowserThatStartedIt() {
        MonCashSandbox sandbox = MonCashStandIn.sandbox();
        String key = TestApi.key(TestApi.application("Victim " + System.nanoTime()), "live", null);
        Intent victim = intent(key, "1000.00");
        String tx = sandbox.pay(leaveForMonCash(victim), "50937001111");
        int byTransaction = sandbox.calls("RetrieveTransactionPayment");
        int byOrder = sandbox.calls("RetrieveOrderPayment");

        for (int n = 0; n < 5; n++) {
            String html = given().redirects().follow(false).queryParam("transactionId", tx).get("/pay/moncash/return")
                    .then().statusCode(200).header("Location", (String) null).header("Cache-Control", "no-store")
                    .extract().asString();
            assertNeutral(html, victim);
        }
        given().redirects().follow(false).get("/pay/moncash/return").then().statusCode(200).body(containsString("id=\"checking\""));
        assertEquals(byTransaction, sandbox.calls("RetrieveTransactionPayment"), "anonymous returns cost MonCash nothing");
        assertEquals(byOrder, sandbox.calls("RetrieveOrderPayment"));

        // a browser with a checkout session of its own, naming the victim's transaction: still neutral
        Intent own = intent(key, "5.00");
        leaveForMonCash(own);
        String ownCookie = browser.cookie(own.session());
        String html = given().redirects().follow(false).cookie("co_rail_session", ownCookie).queryParam("transactionId", tx)
                .get("/pay/moncash/return").then().statusCode(200).header("Location", (String) null).extract().asString();
        assertNeutral(html, victim);

        // the victim's own browser goes back to its page, the payment confirmed with MonCash
        // a made-up cookie, however well-formed (the victim's session id itself), names nothing and costs MonCash nothing
        int before = sandbox.calls("RetrieveTransactionPayment") + sandbox.calls("RetrieveOrderPayment");
        for (String forged : List.of(victim.session(), "pay_cs_01JZZZZZZZZZZZZZZZZZZZZZZZ", ownCookie.substring(0, ownCookie.length() - 2) + "AA")) {
            assertNeutral(given().redirects().follow(false).cookie("co_rail_session", forged).queryParam("transactionId", tx)
                    .get("/pay/moncash/return").then().statusCode(200).extract().asString(), victim);
        }
        assertEquals(before, sandbox.calls("RetrieveTransactionPayment") + sandbox.calls("RetrieveOrderPayment"),
                "forged cookies cost MonCash nothing");

        browser.comeBack(victim.session(), "/pay/" + victim.session(), tx);
        assertEquals("succeeded", as(key).get("/api/v1/payment_intents/" + victim.id()).then().extract().path("status"));
    }

    @Test
    void returnsAreLimitedPerClientAddress() {
        ReturnGateContract.returnsAreLimitedPerClientAddress("/pay/moncash/return");
    }
}
