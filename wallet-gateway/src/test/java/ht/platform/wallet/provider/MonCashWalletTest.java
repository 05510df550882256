package ht.platform.wallet.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.rail.moncash.MonCashClient;
import ht.platform.rail.moncash.MonCashConfig;
import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import ht.platform.rail.moncash.quarkus.MonCashRail;
import ht.platform.support.testing.MonCashBrowser;
import ht.platform.support.testing.MonCashStandIn;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.wallet.jobs.ExpiryJob;
import ht.platform.support.testing.Receiver;
import ht.platform.wallet.jobs.MonCashJob;
import ht.platform.wallet.model.MonCashOrder;
import ht.platform.wallet.service.MonCashPayments;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static ht.platform.support.testing.MonCashBrowser.moncashToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live payments and withdrawals through the MonCash stand-in (a real HTTP server following MonCash's public API):
 * every failure it injects, settled by the gateway itself without a second debit or payout.
 */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
@ExtendWith(PlatformHarness.class)
class MonCashWalletTest {

    static final Duration BOUND = Duration.ofSeconds(15);
    static final ObjectMapper JSON = new ObjectMapper();
    /** Past wallet.moncash.lookup-after: an unanswered payout attempt has ended. */
    static final Duration AFTER_ATTEMPT = Duration.ofMinutes(3);

    @Inject
    MonCashJob job;

    @Inject
    MonCashRail rail;

    @Inject
    ExpiryJob expiry;

    @Inject
    MovableClock clock;

    @Inject
    MonCashPayments moncashPayments;

    MonCashSandbox sandbox;
    String live;

    @BeforeEach
    void setUp() {
        sandbox = MonCashStandIn.sandbox();
        live = TestApi.key(TestApi.project("Live shop " + System.nanoTime()), "live");
    }

    @AfterEach
    void tearDown() {
        MonCashStandIn.setBack("50937002222");
        rail.client().breaker().reset();
    }

    record Pay(String id, String token) { }

    Pay payment(long amount) {
        ExtractableResponse<Response> r = as(live).body(Map.of("amount", amount, "currency", "HTG", "reference", "order-" + System.nanoTime()))
                .post("/api/v1/payments").then().statusCode(201).extract();
        String url = r.path("wallet_url");
        return new Pay(r.path("id"), url.substring(url.lastIndexOf('/') + 1));
    }

    final MonCashBrowser browser = new MonCashBrowser("gw_moncash", "/wallet/moncash/return");

    /** The customer presses "Pay with MonCash"; answers where the browser is sent. */
    String choose(Pay p) {
        return browser.leave(p.token(), "/wallet/" + p.token() + "/moncash", Map.of());
    }

    /** MonCash sends the customer back with the transaction id; the browser still has the page's cookie. */
    void comeBack(Pay p, String transactionId) {
        browser.comeBack(p.token(), "/wallet/" + p.token(), transactionId);
    }

    String status(Pay p) {
        return as(live).get("/api/v1/payments/" + p.id()).then().statusCode(200).extract().path("status");
    }

    String withdrawalStatus(String id) {
        return as(live).get("/api/v1/withdrawals/" + id).then().statusCode(200).extract().path("status");
    }

    void balance(long available, long reserved) {
        as(live).get("/api/v1/balance").then().statusCode(200).body("available", equalTo((int) available))
                .body("reserved", equalTo((int) reserved));
    }

    void settle() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> job.runNow());
    }

    /** A live payment paid on MonCash end to end; the balance is credited with {@code amount}. */
    Pay paid(long amount) {
        Pay p = payment(amount);
        String tx = sandbox.pay(moncashToken(choose(p)), "50937001111");
        comeBack(p, tx);
        assertEquals("succeeded", status(p));
        return p;
    }

    String withdraw(long amount) {
        return as(live).header("Idempotency-Key", TestApi.newKey())
                .body("{\"amount\":" + amount + ",\"destination\":{\"type\":\"wallet\",\"msisdn\":\"+50937002222\"},\"reference\":\"payout-7\"}")
                .post("/api/v1/withdrawals").then().statusCode(201).body("status", equalTo("requested")).extract().path("id");
    }

    long transfersOf(String reference) {
        return sandbox.transfers().stream().filter(t -> t.reference().equals(reference)).count();
    }

    String[] webhook(Receiver rx, String... events) {
        var r = as(live).body(Map.of("url", rx.url(), "events", List.of(events))).post("/api/v1/webhooks")
                .then().statusCode(201).extract();
        return new String[] {r.path("id"), r.path("secret")};
    }

    JsonNode verified(Receiver.Received r, String secret) throws Exception {
        assertTrue(new WebhookVerifier(SignatureScheme.GATEWAY, List.of(secret), Duration.ofMinutes(5), clock)
                .verify(r::header, r.body()).valid(), "signature verifies with shared-webhook-signing");
        return JSON.readTree(r.body()).path("data").path("object");
    }

    @Test
    void liveKeyPaysThroughMonCashAndTheSignedWebhooksArrive() throws Exception {
        try (Receiver rx = new Receiver()) {
            String secret = webhook(rx, "payment.pending", "payment.succeeded")[1];
            Pay p = payment(1000);
            given().get("/wallet/" + p.token()).then().statusCode(200).body(containsString("pay-moncash"))
                    .header("Content-Security-Policy", containsString("form-action 'self' " + sandbox.base()));
            assertEquals("created", status(p), "opening the page sends nobody anywhere");

            String redirect = choose(p);
            assertTrue(redirect.startsWith(sandbox.gatewayBase() + "/Payment/Redirect?token="), redirect);
            assertEquals("pending", status(p));
            assertEquals(p.id() + "-1", sandbox.paymentOfToken(moncashToken(redirect)).orElseThrow().orderId);
            assertEquals(0, new BigDecimal("1025").compareTo(sandbox.paymentOfToken(moncashToken(redirect)).orElseThrow().amount),
                    "the customer pays the total (amount plus fee)");
            assertEquals(redirect, choose(p), "the same MonCash page while it is payable: no second MonCash payment");

            // a return alone proves nothing: an unknown transaction leaves the payment pending
            comeBack(p, "999");
            assertEquals("pending", status(p));
            balance(0, 0);

            String tx = sandbox.pay(moncashToken(redirect), "50937001111");
            comeBack(p, tx);
            as(live).get("/api/v1/payments/" + p.id()).then().statusCode(200).body("status", equalTo("succeeded"))
                    .body("paid_at", not(equalTo(null)));
            balance(1000, 0);
            comeBack(p, tx);
            balance(1000, 0);

            Receiver.await("payment.pending and payment.succeeded", BOUND, () -> rx.received.size() >= 2);
            assertEquals(1, rx.ofType("payment.pending").size());
            assertEquals(1, rx.ofType("payment.succeeded").size());
            JsonNode object = verified(rx.ofType("payment.succeeded").get(0), secret);
            assertEquals(p.id(), object.path("id").asText());
            assertEquals("succeeded", object.path("status").asText());
            assertEquals("live", object.path("mode").asText());
            given().get("/wallet/" + p.token()).then().statusCode(200).body(not(containsString("pay-moncash")));
        }
    }

    @Test
    void liveWithdrawalIsPaidOutByTransfertAndTheSignedWebhooksArrive() throws Throwable {
        try (Receiver rx = new Receiver()) {
            String secret = webhook(rx, "withdrawal.processing", "withdrawal.completed")[1];
            paid(2000);
            String wd = withdraw(500);
            balance(1495, 505);
            settle();
            as(live).get("/api/v1/withdrawals/" + wd).then().statusCode(200).body("status", equalTo("completed"))
                    .body("completed_at", not(equalTo(null)));
            balance(1495, 0);
            MonCashSandbox.TransferRecord t = sandbox.transfers().stream().filter(x -> x.reference().equals(wd)).findFirst().orElseThrow();
            assertEquals(0, new BigDecimal("500").compareTo(t.amount()), "the receiver gets the amount; the fee is the gateway's");
            assertEquals("50937002222", t.receiver());
            settle();
            assertEquals(1, transfersOf(wd), "a completed withdrawal is never paid out again");

            Receiver.await("withdrawal.processing and withdrawal.completed", BOUND, () -> rx.received.size() >= 2);
            assertEquals(List.of("withdrawal.processing", "withdrawal.completed"),
                    rx.received.stream().map(r -> r.header("X-Gateway-Event")).toList());
            JsonNode object = verified(rx.ofType("withdrawal.completed").get(0), secret);
            assertEquals(wd, object.path("id").asText());
            assertEquals("completed", object.path("status").asText());
        }
    }

    @Test
    void anExpiredAccessTokenIsRenewedOnTheFirst401() {
        sandbox.advance(MonCashSandbox.TOKEN_LIFE.plusSeconds(1));
        paid(100); // starts with a token fresh on both clocks
        int tokens = sandbox.calls("oauth/token");
        int creates = sandbox.calls("CreatePayment");
        sandbox.advance(MonCashSandbox.TOKEN_LIFE.plusSeconds(1)); // MonCash's clock: our cached token is dead there
        paid(100);
        assertEquals(tokens + 1, sandbox.calls("oauth/token"), "one renewal");
        assertEquals(creates + 2, sandbox.calls("CreatePayment"), "the call refused with 401 is repeated once with the new token");
    }

    @Test
    void anOrderIdMonCashAlreadyHasIsNeverReusedAndTheCustomerStillPays() throws Throwable {
        Pay p = payment(300);
        // an earlier CreatePayment whose answer was lost: MonCash already has orderId <payment>-1
        try (MonCashClient other = new MonCashClient(MonCashConfig.of(sandbox.apiBase(), sandbox.gatewayBase(),
                MonCashStandIn.CLIENT_ID, MonCashStandIn.CLIENT_SECRET, null, null).orElseThrow(), Clock.systemUTC())) {
            other.createPayment(p.id() + "-1", new BigDecimal("307")).join();
        }
        String redirect = choose(p);
        assertEquals(p.id() + "-2", sandbox.paymentOfToken(moncashToken(redirect)).orElseThrow().orderId,
                "MonCash refused the duplicate orderId; the next order is used");
        comeBack(p, sandbox.pay(moncashToken(redirect), "50937001111"));
        assertEquals("succeeded", status(p));
        balance(300, 0);
        // the first order is looked up until its page has lapsed, then ends not paid; nothing is credited twice
        clock.advance(Duration.ofMinutes(16));
        settle();
        balance(300, 0);
        assertEquals("succeeded", status(p));
    }

    @Test
    void a5xxAfterCreatePaymentShowsTheErrorAndTheCustomerPaysThroughANewOrder() {
        Pay p = payment(400);
        sandbox.failNextAfterEffect("CreatePayment");
        String back = choose(p);
        assertTrue(back.contains("/wallet/" + p.token()) && back.contains("error=moncash"), back);
        given().queryParam("error", "moncash").get("/wallet/" + p.token()).then().statusCode(200).body(containsString("rail-error"));
        assertEquals("created", status(p), "nobody was sent to MonCash");
        String redirect = choose(p);
        assertEquals(p.id() + "-2", sandbox.paymentOfToken(moncashToken(redirect)).orElseThrow().orderId);
        comeBack(p, sandbox.pay(moncashToken(redirect), "50937001111"));
        assertEquals("succeeded", status(p));
        balance(400, 0);
    }

    @Test
    void aSecondMonCashPaymentOfTheSamePaymentIsGivenBackToItsPayerOnce() throws Throwable {
        Pay p = payment(1000);
        String first = moncashToken(choose(p));
        // our clock passes the first page's expiry (MonCash's clock has not): the customer gets a second page
        Instant firstExpires = sandbox.paymentOfToken(first).orElseThrow().created.plus(MonCashSandbox.PAYMENT_TOKEN_LIFE);
        clock.advance(Duration.between(clock.instant(), firstExpires).plusSeconds(1));
        String second = moncashToken(choose(p));
        assertEquals(p.id() + "-2", sandbox.paymentOfToken(second).orElseThrow().orderId);
        comeBack(p, sandbox.pay(second, "50937001111"));
        assertEquals("succeeded", status(p));
        sandbox.pay(first, "50937003333"); // ... and paid the first page too
        settle();
        balance(1000, 0);
        List<MonCashSandbox.TransferRecord> back = sandbox.transfers().stream()
                .filter(t -> t.reference().equals(p.id() + "-1-back")).toList();
        assertEquals(1, back.size(), "the second payment went back");
        assertEquals(0, new BigDecimal("1025").compareTo(back.get(0).amount()));
        // the merchant sees it on the payment's MonCash orders
        as(live).get("/api/v1/payments/" + p.id() + "/moncash_orders").then().statusCode(200)
                .body("data.id", equalTo(List.of(p.id() + "-2", p.id() + "-1")))
                .body("data[1].status", equalTo("paid_after_final")).body("data[1].collected", equalTo("1025"))
                .body("data[1].given_back", equalTo("sent")).body("data[0].status", equalTo("paid"));
        String other = TestApi.key(TestApi.project("Other shop " + System.nanoTime()), "live");
        as(other).get("/api/v1/payments/" + p.id() + "/moncash_orders").then().statusCode(404);
        assertEquals("50937003333", back.get(0).receiver());
        settle();
        assertEquals(1, transfersOf(p.id() + "-1-back"), "given back once");
        balance(1000, 0);
    }

    @Test
    void aCustomerWhoNeverPaysExpiresOnlyOnceMonCashShowsNothingAfterItsPageLapsed() throws Throwable {
        Pay p = payment(800);
        choose(p);
        clock.advance(Duration.ofMinutes(31)); // past the payment's expiry: its MonCash order has not been settled yet
        expiry.runNow().await().atMost(Duration.ofSeconds(30));
        assertEquals("pending", status(p), "MonCash may still show it paid: it does not expire by time alone");
        settle(); // MonCash shows nothing and the page has lapsed: the order ends not paid
        expiry.runNow().await().atMost(Duration.ofSeconds(30));
        assertEquals("expired", status(p));
        balance(0, 0);
    }

    @Test
    void aSlowConfirmationIsUnknownThenTheReconcilerSettlesIt() throws Throwable {
        Pay p = payment(500);
        String tx = sandbox.pay(moncashToken(choose(p)), "50937001111");
        sandbox.slowNext("RetrieveTransactionPayment", Duration.ofSeconds(3)); // past the client's 2 s timeout
        comeBack(p, tx); // traced by the browser's cookie
        assertEquals("pending", status(p));
        balance(0, 0);
        settle();
        assertEquals("succeeded", status(p));
        balance(500, 0);
    }

    @Test
    void aPaymentMonCashShowsOnlySecondsLaterIsSettledOnceVisible() throws Throwable {
        sandbox.showPaymentsAfter(Duration.ofSeconds(8));
        Pay p = payment(600);
        comeBack(p, sandbox.pay(moncashToken(choose(p)), "50937001111"));
        assertEquals("pending", status(p), "MonCash does not show it yet");
        settle();
        assertEquals("pending", status(p));
        // past the payment's own expiry too: an open MonCash order keeps it from expiring
        clock.advance(Duration.ofMinutes(31));
        given().get("/wallet/" + p.token()).then().statusCode(200);
        assertEquals("pending", status(p));
        sandbox.advance(Duration.ofSeconds(9));
        settle();
        assertEquals("succeeded", status(p));
        balance(600, 0);
    }

    @Test
    void aSlowTransfertStaysProcessingUntilTheLookupByReferenceSettlesIt() throws Throwable {
        paid(2000);
        String wd = withdraw(1000);
        sandbox.slowNext("Transfert", Duration.ofSeconds(3));
        settle();
        assertEquals("processing", withdrawalStatus(wd), "no answer: unknown, never failed");
        balance(990, 1010);
        int lookups = sandbox.calls("PrefundedTransactionStatus");
        settle();
        assertEquals("processing", withdrawalStatus(wd), "the attempt may still be in flight: nothing yet");
        assertEquals(lookups, sandbox.calls("PrefundedTransactionStatus"));
        clock.advance(AFTER_ATTEMPT);
        settle();
        assertEquals("completed", withdrawalStatus(wd));
        assertTrue(sandbox.calls("PrefundedTransactionStatus") > lookups, "settled by a lookup by reference");
        assertEquals(1, transfersOf(wd), "never a second transfer");
        balance(990, 0);
    }

    @Test
    void a5xxAfterTheMoneyMovedIsSettledByTheLookupWithoutASecondPayout() throws Throwable {
        paid(2000);
        String wd = withdraw(700);
        int transferts = sandbox.calls("Transfert");
        sandbox.failNextAfterEffect("Transfert");
        settle();
        assertEquals("processing", withdrawalStatus(wd));
        clock.advance(AFTER_ATTEMPT);
        settle();
        assertEquals("completed", withdrawalStatus(wd));
        assertEquals(transferts + 1, sandbox.calls("Transfert"), "the lookup found the transfer: nothing sent again");
        assertEquals(1, transfersOf(wd));
        balance(2000 - 707, 0);
    }

    @Test
    void aTransferThePrefundedBalanceCannotCoverFailsAndReleasesTheReservation() throws Throwable {
        try (Receiver rx = new Receiver()) {
            webhook(rx, "withdrawal.failed");
            paid(2000);
            sandbox.prefundedBalance(new BigDecimal("100"));
            int transferts = sandbox.calls("Transfert");
            String wd = withdraw(500);
            balance(1495, 505);
            settle();
            as(live).get("/api/v1/withdrawals/" + wd).then().statusCode(200).body("status", equalTo("failed"))
                    .body("failure_reason", equalTo("insufficient_prefunded_balance"));
            balance(2000, 0);
            assertEquals(transferts, sandbox.calls("Transfert"), "nothing was sent");
            Receiver.await("withdrawal.failed", BOUND, () -> rx.ofType("withdrawal.failed").size() == 1);
        }
    }

    @Test
    void aPaymentMonCashShows40SecondsLaterWhoseCustomerNeverReturnsIsStillCredited() throws Throwable {
        Receiver rx = new Receiver();
        String secret = webhook(rx, "payment.succeeded")[1];
        sandbox.showPaymentsAfter(Duration.ofSeconds(40));
        Pay p = payment(900);
        sandbox.pay(moncashToken(choose(p)), "50937001111"); // and the customer closes the tab: no return
        settle();
        assertEquals("pending", status(p), "MonCash shows nothing yet; the order stays open (its page is not over)");
        clock.advance(Duration.ofSeconds(41));
        sandbox.advance(Duration.ofSeconds(41));
        settle();
        assertEquals("succeeded", status(p));
        balance(900, 0);
        Receiver.await("payment.succeeded", BOUND, () -> rx.ofType("payment.succeeded").size() == 1);
        assertEquals(p.id(), verified(rx.ofType("payment.succeeded").get(0), secret).path("id").asText());
        rx.close();
    }

    @Test
    void aWithdrawalToAFullWalletFailsAtOnceWithItsEventAndReleasesTheReservation() throws Throwable {
        try (Receiver rx = new Receiver()) {
            String secret = webhook(rx, "withdrawal.failed")[1];
            paid(2000);
            sandbox.fullWallet("50937002222");
            String wd = withdraw(500);
            balance(1495, 505);
            settle();
            as(live).get("/api/v1/withdrawals/" + wd).then().statusCode(200).body("status", equalTo("failed"))
                    .body("failure_reason", equalTo("transfert_refused"))
                    .body("failure_message", containsString("Maximum Account Balance"));
            balance(2000, 0);
            assertEquals(0, transfersOf(wd));
            settle();
            assertEquals("failed", withdrawalStatus(wd), "a failed withdrawal is never tried again");
            Receiver.await("withdrawal.failed", BOUND, () -> rx.ofType("withdrawal.failed").size() == 1);
            JsonNode object = verified(rx.ofType("withdrawal.failed").get(0), secret);
            assertEquals("transfert_refused", object.path("failure_reason").asText());
        }
    }

    /**
     * The whole live flow with MonCash's clock (and ours) a few minutes before each of Haiti's daylight-time changes,
     * so that each payment page expires on the other side: 2026-03-08 02:00 EST -> 03:00 EDT, 2026-11-01 02:00 EDT
     * -> 01:00 EST. A page read in the wrong zone would look expired hours ago (or hours ahead).
     */
    @Test
    void theWholeLiveFlowWorksOnEachSideOfADaylightTimeChange() throws Throwable {
        for (Instant at : List.of(Instant.parse("2026-03-08T06:55:00Z"), Instant.parse("2026-11-01T05:55:00Z"))) {
            clock.advance(Duration.between(clock.instant(), at));
            sandbox.at(at);
            Pay returning = payment(1000);
            String redirect = choose(returning);
            assertTrue(redirect.startsWith(sandbox.gatewayBase() + "/Payment/Redirect?token="), at + ": " + redirect);
            List<MonCashOrder> orders = VertxContextSupport.subscribeAndAwait(() -> moncashPayments.orders(returning.id()));
            assertEquals(at.plus(MonCashSandbox.PAYMENT_TOKEN_LIFE), orders.get(0).tokenExpiresAt, at.toString());
            comeBack(returning, sandbox.pay(moncashToken(redirect), "50937001111"));
            assertEquals("succeeded", status(returning), at.toString());

            Pay silent = payment(500);
            sandbox.showPaymentsAfter(Duration.ofSeconds(40));
            sandbox.pay(moncashToken(choose(silent)), "50937001111");
            settle();
            assertEquals("pending", status(silent), at.toString());
            clock.advance(Duration.ofMinutes(9)); // past the change, inside the page's life and the lookup
            sandbox.advance(Duration.ofMinutes(9));
            settle();
            assertEquals("succeeded", status(silent), at.toString());
            sandbox.showPaymentsAfter(Duration.ZERO);

            String wd = withdraw(300);
            settle();
            assertEquals("completed", withdrawalStatus(wd), at.toString());
        }
    }

    @Test
    void theTestModeStaysTheSimulator() {
        String test = TestApi.key(TestApi.project("Test shop " + System.nanoTime()), "test");
        int creates = sandbox.calls("CreatePayment");
        String id = TestApi.payment(test, 100);
        as(test).post("/api/v1/test_helpers/payments/" + id + "/succeed").then().statusCode(200).body("status", equalTo("succeeded"));
        assertEquals(creates, sandbox.calls("CreatePayment"));
        String url = as(test).get("/api/v1/payments/" + id).then().extract().path("wallet_url");
        given().get(url.substring(url.indexOf("/wallet/"))).then().statusCode(200).body(not(containsString("pay-moncash")));
        assertFalse(url.isBlank());
        given().redirects().follow(false).get("/wallet/moncash/return").then().statusCode(200) // the neutral page (issue 22)
                .body(startsWith("<!DOCTYPE html>"));
    }
}
