package ht.platform.checkout.provider;

import ht.platform.checkout.TestApi;
import ht.platform.support.testing.Receiver;
import ht.platform.checkout.service.Reconciler;
import ht.platform.rail.moncash.MonCashClient;
import ht.platform.rail.moncash.MonCashConfig;
import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import ht.platform.support.testing.MonCashBrowser;
import ht.platform.support.testing.MonCashStandIn;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.TestDatabase;
import ht.platform.support.time.MovableClock;
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
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static ht.platform.support.testing.MonCashBrowser.moncashToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Live checkout through the MonCash stand-in (a real HTTP server): every failure it injects, settled by the service. */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
@ExtendWith(PlatformHarness.class)
class MonCashCheckoutTest {

    @Inject
    Reconciler reconciler;

    @Inject
    PaymentRails rails;

    @Inject
    MovableClock clock;

    MonCashSandbox sandbox;
    String key;

    @BeforeEach
    void setUp() {
        sandbox = MonCashStandIn.sandbox();
        key = TestApi.key(TestApi.application("Live " + System.nanoTime()), "live", null);
    }

    @AfterEach
    void tearDown() {
        MonCashStandIn.setBack("50937005555");
        rails.breaker(MonCashProvider.NAME).reset();
    }

    record Intent(String id, String session) { }

    Intent intent(String amount) {
        ExtractableResponse<Response> r = as(key).body(Map.of("amount", amount, "currency", "HTG", "external_reference", "order-9"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract();
        String url = r.path("checkout_url");
        return new Intent(r.path("id"), url.substring(url.lastIndexOf('/') + 1));
    }

    final MonCashBrowser browser = new MonCashBrowser("co_rail_session", "/pay/moncash/return");

    /** The customer chooses MonCash on the hosted page; answers where the browser is sent. */
    String choose(Intent i) {
        return browser.leave(i.session(), "/pay/" + i.session() + "/pay", Map.of("payment_method", "moncash"));
    }

    /** MonCash sends the customer back to the account's return URL with the transaction id. */
    void comeBack(Intent i, String transactionId) {
        browser.comeBack(i.session(), "/pay/" + i.session(), transactionId);
    }

    String status(Intent i) {
        return as(key).get("/api/v1/payment_intents/" + i.id()).then().statusCode(200).extract().path("status");
    }

    void reconcile() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> reconciler.reconcile());
    }

    @Test
    void liveKeyPaysEndToEndAndTheSignedWebhookArrives() throws Exception {
        try (Receiver receiver = new Receiver()) {
            String secret = as(key).body(Map.of("url", receiver.url("/hooks"))).post("/api/v1/webhook_endpoints")
                    .then().statusCode(201).extract().path("secret");
            as(key).get("/api/v1/payment_methods").then().statusCode(200).body("data.id", equalTo(List.of("moncash")))
                    .body("data[0].available", equalTo(true)).body("data[0].currencies", equalTo(List.of("HTG")));
            Intent i = intent("250.50");
            String redirect = choose(i);
            assertTrue(redirect.startsWith(sandbox.gatewayBase() + "/Payment/Redirect?token="), redirect);
            assertEquals("requires_action", status(i));
            // the customer's page offers to continue to MonCash, nothing is paid yet
            given().get("/pay/" + i.session()).then().statusCode(200).body(containsString("rail-continue"));

            String tx = sandbox.pay(moncashToken(redirect), "50937001111");
            comeBack(i, tx);
            as(key).get("/api/v1/payment_intents/" + i.id()).then().statusCode(200).body("status", equalTo("succeeded"))
                    .body("amount_received", equalTo("250.500000")).body("payment_method", equalTo("moncash"))
                    .body("mode", equalTo("live"));

            Receiver.await(() -> !receiver.ofType("payment_intent.succeeded").isEmpty(), "payment_intent.succeeded");
            Receiver.Received r = receiver.ofType("payment_intent.succeeded").get(0);
            assertTrue(new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret), Duration.ofMinutes(5), Clock.systemUTC())
                    .verify(r::header, r.body()).valid());
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertTrue(body.contains("\"mode\":\"live\"") && body.contains("\"payment_method\":\"moncash\""), body);
        }
    }

    @Test
    void anAccessTokenMonCashNoLongerTakesIsRenewedOnTheFirst401() {
        sandbox.advance(MonCashSandbox.TOKEN_LIFE.plusSeconds(1));
        Intent warmUp = intent("10");
        comeBack(warmUp, sandbox.pay(moncashToken(choose(warmUp)), "50937001111")); // starts with a token fresh on both clocks
        int tokens = sandbox.calls("oauth/token");
        int creates = sandbox.calls("CreatePayment");
        sandbox.advance(MonCashSandbox.TOKEN_LIFE.plusSeconds(1)); // MonCash's clock: our cached token is dead there
        Intent i = intent("20");
        comeBack(i, sandbox.pay(moncashToken(choose(i)), "50937001111"));
        assertEquals("succeeded", status(i));
        assertEquals(tokens + 1, sandbox.calls("oauth/token"), "one renewal");
        assertEquals(creates + 2, sandbox.calls("CreatePayment"), "the call refused with 401 is repeated once with the new token");
    }

    @Test
    void theReturnAloneNeverPaysAndALatePaymentIsSettledByTheReconciler() throws Throwable {
        Intent i = intent("75");
        String redirect = choose(i);
        // a forged return (no such transaction, nothing paid): MonCash is asked and shows nothing
        comeBack(i, "999999999");
        assertEquals("provider_pending", status(i));
        sandbox.showPaymentsAfter(Duration.ofSeconds(30));
        sandbox.pay(moncashToken(redirect), "50937002222");
        int tokens = sandbox.calls("oauth/token");
        reconcile();
        assertEquals("provider_pending", status(i), "MonCash does not show it yet");
        sandbox.advance(Duration.ofSeconds(60)); // also past the 59 s of our access token at MonCash: 401, renewed
        reconcile();
        as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("succeeded"))
                .body("amount_received", equalTo("75.000000"));
        assertTrue(sandbox.calls("oauth/token") > tokens, "the expired token was renewed");
    }

    @Test
    void customerWhoNeverPaysEndsFailedOnlyOnceMonCashCanNoLongerTakeThePayment() throws Throwable {
        Intent i = intent("40");
        choose(i);
        comeBack(i, "123456789"); // says paid, is not
        assertEquals("provider_pending", status(i));
        clock.advance(Duration.ofMinutes(9));
        reconcile();
        assertEquals("provider_pending", status(i), "the MonCash page still takes the payment");
        clock.advance(Duration.ofMinutes(10));
        reconcile();
        as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("failed"))
                .body("last_payment_error.code", equalTo("payment_not_completed"));
    }

    @Test
    void slowOr5xxCreationIsProviderUnknownAndSettlesAsFailedWhenMonCashShowsNoPayment() throws Throwable {
        Intent slow = intent("10");
        sandbox.slowNext("CreatePayment", Duration.ofSeconds(3));
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParam("payment_method", "moncash")
                .post("/pay/" + slow.session() + "/pay").then().statusCode(303)
                .header("Location", containsString("/pay/" + slow.session()));
        assertEquals("provider_unknown", status(slow));

        Intent broken = intent("11");
        sandbox.failNextAfterEffect("CreatePayment");
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParam("payment_method", "moncash")
                .post("/pay/" + broken.session() + "/pay").then().statusCode(303);
        assertEquals("provider_unknown", status(broken));

        reconcile();
        for (Intent i : List.of(slow, broken)) {
            as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("failed"))
                    .body("last_payment_error.code", equalTo("payment_not_created"));
        }
    }

    @Test
    void slowOr5xxConfirmationIsProviderUnknownAndSettlesAsSucceeded() throws Throwable {
        Intent slow = intent("20");
        String token = moncashToken(choose(slow));
        String tx = sandbox.pay(token, "50937003333");
        sandbox.slowNext("RetrieveOrderPayment", Duration.ofSeconds(3), sandbox.paymentOfToken(token).orElseThrow().orderId);
        comeBack(slow, tx);
        assertEquals("provider_unknown", status(slow));

        Intent broken = intent("21");
        String token2 = moncashToken(choose(broken));
        String tx2 = sandbox.pay(token2, "50937003333");
        sandbox.failNextBeforeEffect("RetrieveOrderPayment", sandbox.paymentOfToken(token2).orElseThrow().orderId);
        comeBack(broken, tx2);
        assertEquals("provider_unknown", status(broken));

        reconcile();
        assertEquals("succeeded", status(slow));
        assertEquals("succeeded", status(broken));
    }

    @Test
    void aCreationRepeatedAfterACrashMeetsTheDuplicateOrderIdAndFails() throws Throwable {
        Intent i = intent("30");
        String attempt = "pay_at_crash" + System.nanoTime();
        Instant longAgo = Instant.now().minus(Duration.ofHours(1));
        // the crash: our attempt was recorded and MonCash created the payment, but the answer was never recorded
        try (Connection c = TestDatabase.connect()) {
            try (PreparedStatement st = c.prepareStatement("UPDATE checkout.payment_intents SET status = 'processing',"
                    + " payment_method = 'moncash' WHERE id = ?")) {
                st.setString(1, i.id());
                st.executeUpdate();
            }
            try (PreparedStatement st = c.prepareStatement("INSERT INTO checkout.payment_attempts (id, payment_intent_id, kind,"
                    + " provider, payment_method, amount, status, created_at, updated_at)"
                    + " VALUES (?, ?, 'authorize', 'moncash', 'moncash', 30, 'started', ?, ?)")) {
                st.setString(1, attempt);
                st.setString(2, i.id());
                st.setTimestamp(3, Timestamp.from(longAgo));
                st.setTimestamp(4, Timestamp.from(longAgo));
                st.executeUpdate();
            }
        }
        try (MonCashClient other = new MonCashClient(MonCashConfig.of(sandbox.apiBase(), sandbox.gatewayBase(),
                MonCashStandIn.CLIENT_ID, MonCashStandIn.CLIENT_SECRET, null, null).orElseThrow(), Clock.systemUTC())) {
            other.createPayment(attempt, new BigDecimal("30")).get();
        }
        reconcile();
        as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("failed"))
                .body("last_payment_error.code", equalTo("provider_declined"))
                .body("last_payment_error.message", containsString("already exists"));
    }

    @Test
    void refundsGoOutAsTransfersToThePayerOnceAndNeverBeyondWhatWasReceived() throws Throwable {
        Receiver receiver = new Receiver();
        String secret = as(key).body(Map.of("url", receiver.url("/hooks"), "events", List.of("refund.succeeded")))
                .post("/api/v1/webhook_endpoints").then().statusCode(201).extract().path("secret");
        Intent i = intent("500");
        String tx = sandbox.pay(moncashToken(choose(i)), "50937004444");
        comeBack(i, tx);
        assertEquals("succeeded", status(i));

        String first = as(key).header("Idempotency-Key", "r1-" + System.nanoTime())
                .body(Map.of("payment_intent", i.id(), "amount", "200")).post("/api/v1/refunds")
                .then().statusCode(201).extract().path("id");
        as(key).get("/api/v1/refunds/" + first).then().body("status", equalTo("succeeded"));
        MonCashSandbox.TransferRecord t = sandbox.transfers().stream().filter(x -> x.reference().equals(first)).findFirst().orElseThrow();
        assertEquals("50937004444", t.receiver());
        assertEquals(0, new BigDecimal("200").compareTo(t.amount()));

        // the transfer happens, its answer is lost: the refund stays pending, and the lookup by reference settles it
        sandbox.failNextAfterEffect("Transfert", "pay_re_");
        String second = as(key).header("Idempotency-Key", "r2-" + System.nanoTime())
                .body(Map.of("payment_intent", i.id(), "amount", "100")).post("/api/v1/refunds")
                .then().statusCode(201).extract().path("id");
        as(key).get("/api/v1/refunds/" + second).then().body("status", equalTo("pending"));
        clock.advance(Duration.ofMinutes(3));
        reconcile();
        as(key).get("/api/v1/refunds/" + second).then().body("status", equalTo("succeeded"));
        assertEquals(1, sandbox.transfers().stream().filter(x -> x.reference().equals(second)).count());
        Receiver.await(() -> receiver.ofType("refund.succeeded").stream()
                .anyMatch(r -> new String(r.body(), StandardCharsets.UTF_8).contains(second)), "refund.succeeded of " + second);
        for (Receiver.Received r : receiver.ofType("refund.succeeded")) {
            assertTrue(new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret), Duration.ofMinutes(5), Clock.systemUTC())
                    .verify(r::header, r.body()).valid());
        }
        receiver.close();

        // MonCash's prefunded balance cannot cover the rest: the refund fails, nothing left MonCash
        sandbox.prefundedBalance(new BigDecimal("50"));
        String third = as(key).header("Idempotency-Key", "r3-" + System.nanoTime())
                .body(Map.of("payment_intent", i.id())).post("/api/v1/refunds")
                .then().statusCode(201).body("amount", equalTo("200.000000")).extract().path("id");
        as(key).get("/api/v1/refunds/" + third).then().body("status", equalTo("failed"))
                .body("failure_reason", equalTo("insufficient_prefunded_balance"));
        as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("partially_refunded"))
                .body("amount_refunded", equalTo("300.000000"));
        as(key).header("Idempotency-Key", "r4-" + System.nanoTime()).body(Map.of("payment_intent", i.id(), "amount", "200.01"))
                .post("/api/v1/refunds").then().statusCode(409).body("error.code", equalTo("REFUND_EXCEEDS_AVAILABLE"));
    }

    @Test
    void aRefundToAFullWalletFailsAtOnceWithItsSignedEventAndMonCashsMessage() throws Exception {
        try (Receiver receiver = new Receiver()) {
            String secret = as(key).body(Map.of("url", receiver.url("/hooks"), "events", List.of("refund.failed")))
                    .post("/api/v1/webhook_endpoints").then().statusCode(201).extract().path("secret");
            Intent i = intent("300");
            comeBack(i, sandbox.pay(moncashToken(choose(i)), "50937005555"));
            assertEquals("succeeded", status(i));
            sandbox.fullWallet("50937005555");
            String refund = as(key).header("Idempotency-Key", "full-" + System.nanoTime())
                    .body(Map.of("payment_intent", i.id(), "amount", "100")).post("/api/v1/refunds")
                    .then().statusCode(201).extract().path("id");
            as(key).get("/api/v1/refunds/" + refund).then().body("status", equalTo("failed"))
                    .body("failure_reason", equalTo("transfert_refused"))
                    .body("failure_message", containsString("Maximum Account Balance"));
            as(key).get("/api/v1/payment_intents/" + i.id()).then().body("status", equalTo("succeeded"))
                    .body("amount_refunded", equalTo("0.000000"));
            assertTrue(sandbox.transfers().stream().noneMatch(x -> x.reference().equals(refund)));
            Receiver.await(() -> !receiver.ofType("refund.failed").isEmpty(), "refund.failed");
            Receiver.Received r = receiver.ofType("refund.failed").get(0);
            assertTrue(new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret), Duration.ofMinutes(5), Clock.systemUTC())
                    .verify(r::header, r.body()).valid());
            assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("\"failure_reason\":\"transfert_refused\""));
        }
    }

    /**
     * A live payment and its refund with MonCash's clock (and ours) a few minutes before each of Haiti's daylight-time
     * changes, so that the payment page expires on the other side (2026-03-08 02:00 EST -> 03:00 EDT, 2026-11-01
     * 02:00 EDT -> 01:00 EST): the customer is sent to MonCash, not back to our page.
     */
    @Test
    void theWholeLiveFlowWorksOnEachSideOfADaylightTimeChange() throws Throwable {
        for (Instant at : List.of(Instant.parse("2026-03-08T06:55:00Z"), Instant.parse("2026-11-01T05:55:00Z"))) {
            clock.advance(Duration.between(clock.instant(), at));
            sandbox.at(at);
            Intent i = intent("150");
            String redirect = choose(i);
            assertTrue(redirect.startsWith(sandbox.gatewayBase() + "/Payment/Redirect?token="), at + ": " + redirect);
            clock.advance(Duration.ofMinutes(8)); // across the change, still inside the page's ten minutes
            sandbox.advance(Duration.ofMinutes(8));
            reconcile();
            assertEquals("requires_action", status(i), at + ": the page is still payable");
            comeBack(i, sandbox.pay(moncashToken(redirect), "50937004444"));
            assertEquals("succeeded", status(i), at.toString());
            String refund = as(key).header("Idempotency-Key", "dst-" + System.nanoTime())
                    .body(Map.of("payment_intent", i.id(), "amount", "50")).post("/api/v1/refunds")
                    .then().statusCode(201).extract().path("id");
            as(key).get("/api/v1/refunds/" + refund).then().body("status", equalTo("succeeded"));
        }
    }

    @Test
    void moncashIsListedOnlyWhileItsBreakerIsClosedAndOnlyForAmountsItCarries() {
        rails.breaker(MonCashProvider.NAME).transitionToOpenState();
        as(key).get("/api/v1/payment_methods").then().statusCode(200).body("data[0].id", equalTo("moncash"))
                .body("data[0].available", equalTo(false));
        Intent i = intent("12");
        given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParam("payment_method", "moncash")
                .post("/pay/" + i.session() + "/pay").then().statusCode(303).header("Location", containsString("error=1"));
        assertEquals("requires_payment_method", status(i));
        rails.breaker(MonCashProvider.NAME).reset();
        as(key).queryParam("currency", "USD").get("/api/v1/payment_methods").then().body("data.size()", equalTo(0));
        Intent thousandths = intent("12.345");
        given().get("/pay/" + thousandths.session()).then().statusCode(200).body(containsString("no-method"));
        assertFalse(given().get("/pay/" + thousandths.session()).asString().contains("method-moncash"));
    }
}
