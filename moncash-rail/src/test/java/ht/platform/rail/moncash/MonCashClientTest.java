package ht.platform.rail.moncash;

import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import ht.platform.support.time.MovableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client against the stand-in, a real HTTP server: every failure it injects, as the client sees it. */
class MonCashClientTest {

    MonCashSandbox sandbox;
    MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-11-23T09:00:00Z"), ZoneOffset.UTC));
    MonCashClient client;

    @BeforeEach
    void start() throws Exception {
        sandbox = MonCashSandbox.start(0, "client-1", "s3cret-value", URI.create("http://127.0.0.1:1/return"));
        client = new MonCashClient(MonCashConfig.of(sandbox.apiBase(), sandbox.gatewayBase(), "client-1", "s3cret-value",
                Duration.ofMillis(500), Duration.ofMillis(1000)).orElseThrow(), clock);
    }

    @AfterEach
    void stop() {
        client.close();
        sandbox.close();
    }

    static <T> T await(CompletableFuture<T> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    static MonCashException failure(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof MonCashException, e.getCause().toString());
        return (MonCashException) e.getCause();
    }

    @Test
    void paymentIsCreatedPaidAndRetrievedWithItsExactAmount() throws Exception {
        PaymentToken t = await(client.createPayment("order-1", new BigDecimal("1250.50")));
        assertTrue(t.redirectUrl().toString().startsWith(sandbox.gatewayBase() + "/Payment/Redirect?token="));
        assertEquals(sandbox.now(), t.createdAt(), "the stand-in writes Haiti local time, read back exactly");
        assertEquals(sandbox.now().plus(MonCashSandbox.PAYMENT_TOKEN_LIFE), t.expiresAt());
        assertEquals(Optional.empty(), await(client.retrieveOrderPayment("order-1")), "not paid yet: MonCash has no payment");
        String tx = sandbox.pay(t.token(), "50937001111");
        OrderPayment p = await(client.retrieveOrderPayment("order-1")).orElseThrow();
        assertTrue(p.successful());
        assertEquals("order-1", p.reference());
        assertEquals(tx, p.transactionId());
        assertEquals("50937001111", p.payer());
        assertTrue(Htg.same(p.cost(), new BigDecimal("1250.500000")));
        assertFalse(Htg.same(p.cost(), new BigDecimal("1250.49")));
        assertEquals("order-1", await(client.retrieveTransactionPayment(tx)).orElseThrow().reference());
    }

    @Test
    void tokenIsCachedRenewedBeforeExpiryAndAfterA401() throws Exception {
        await(client.prefundedBalance());
        await(client.prefundedBalance());
        assertEquals(1, sandbox.calls("oauth/token"), "the token is cached");
        // our clock passes the renewal point (59 s minus the margin): renewed before MonCash would refuse it
        clock.advance(Duration.ofSeconds(50));
        await(client.prefundedBalance());
        assertEquals(2, sandbox.calls("oauth/token"));
        // MonCash's clock runs ahead: it answers 401 to the cached token; the client renews once and repeats
        sandbox.advance(Duration.ofSeconds(60));
        assertEquals(0, new BigDecimal("100000").compareTo(await(client.prefundedBalance())));
        assertEquals(3, sandbox.calls("oauth/token"));
        assertEquals(5, sandbox.calls("PrefundedBalance"), "the refused call was repeated once");
    }

    @Test
    void wrongCredentialsAreRefusedAndNeverShown() {
        MonCashClient wrong = new MonCashClient(MonCashConfig.of(sandbox.apiBase(), sandbox.gatewayBase(), "client-1",
                "not-the-secret", null, null).orElseThrow(), clock);
        MonCashException e = failure(wrong.prefundedBalance());
        assertEquals(MonCashException.Kind.NOT_SENT, e.kind(), "a 401 decides nothing: the payout waits for good credentials");
        assertEquals(401, e.status());
        assertFalse(e.getMessage().contains("not-the-secret"));
        assertFalse(wrong.toString().contains("not-the-secret"));
        assertFalse(MonCashConfig.of("a", "b", "c", "not-the-secret", null, null).orElseThrow().toString().contains("not-the-secret"));
        wrong.close();
    }

    @Test
    void duplicateOrderIdIsRefused() throws Exception {
        await(client.createPayment("order-dup", new BigDecimal("10")));
        MonCashException e = failure(client.createPayment("order-dup", new BigDecimal("10")));
        assertEquals(MonCashException.Kind.REFUSED, e.kind());
        assertEquals(400, e.status());
    }

    @Test
    void slowAnswerPastTheTimeoutIsUnknownAndTheEffectHappened() throws Exception {
        await(client.prefundedBalance()); // a warm connection: only the slow answer can exceed the timeout
        sandbox.slowNext("CreatePayment", Duration.ofMillis(2000));
        MonCashException e = failure(client.createPayment("order-slow", new BigDecimal("10")));
        assertEquals(MonCashException.Kind.UNKNOWN, e.kind(), e.getMessage());
        assertTrue(sandbox.payment("order-slow").isPresent(), "MonCash created it anyway");
    }

    @Test
    void serverErrorAfterTheMoneyMovedIsUnknownAndTheLookupTellsTheTruth() throws Exception {
        sandbox.failNextAfterEffect("Transfert");
        MonCashException e = failure(client.transfer("wd_1", new BigDecimal("300"), "50937002222", "payout"));
        assertEquals(MonCashException.Kind.UNKNOWN, e.kind());
        assertEquals(Optional.of("successful"), await(client.transferStatus("wd_1")));
        assertEquals(Optional.empty(), await(client.transferStatus("wd_never")));
        assertEquals(0, new BigDecimal("99700").compareTo(await(client.prefundedBalance())));
    }

    @Test
    void paymentShowsUpOnlyLater() throws Exception {
        sandbox.showPaymentsAfter(Duration.ofSeconds(5));
        PaymentToken t = await(client.createPayment("order-late", new BigDecimal("75")));
        sandbox.pay(t.token(), "50937003333");
        assertEquals(Optional.empty(), await(client.retrieveOrderPayment("order-late")));
        sandbox.advance(Duration.ofSeconds(6));
        assertTrue(await(client.retrieveOrderPayment("order-late")).orElseThrow().successful());
    }

    @Test
    void transferBeyondThePrefundedBalanceIsRefused() throws Exception {
        sandbox.prefundedBalance(new BigDecimal("100"));
        MonCashException e = failure(client.transfer("wd_2", new BigDecimal("100.01"), "50937002222", "payout"));
        assertEquals(MonCashException.Kind.REFUSED, e.kind());
        assertTrue(e.getMessage().contains("Insufficient prefunded balance"));
        assertEquals(Optional.empty(), await(client.transferStatus("wd_2")));
        MonCashException dup = failure(client.transfer("wd_3", new BigDecimal("1"), "50937002222", "payout")
                .thenCompose(x -> client.transfer("wd_3", new BigDecimal("1"), "50937002222", "payout")));
        assertEquals(MonCashException.Kind.REFUSED, dup.kind(), "a reference is paid out once");
    }

    @Test
    void breakerOpensAfterRepeatedFailuresAndThenNothingIsSent() throws Exception {
        await(client.prefundedBalance());
        for (int i = 0; i < 5; i++) {
            sandbox.failNextBeforeEffect("PrefundedBalance");
            assertEquals(MonCashException.Kind.UNKNOWN, failure(client.prefundedBalance()).kind());
        }
        assertFalse(client.available());
        int before = sandbox.calls("PrefundedBalance");
        assertEquals(MonCashException.Kind.NOT_SENT, failure(client.prefundedBalance()).kind());
        assertEquals(before, sandbox.calls("PrefundedBalance"));
        clock.advance(Duration.ofSeconds(31));
        assertTrue(client.available());
        sandbox.failNextBeforeEffect("PrefundedBalance");
        assertEquals(MonCashException.Kind.UNKNOWN, failure(client.prefundedBalance()).kind());
        assertFalse(client.available(), "the one call let through after the open period failed: open again at once");
        clock.advance(Duration.ofSeconds(31));
        await(client.prefundedBalance());
        assertTrue(client.available(), "the call let through was answered: closed");
        await(client.prefundedBalance());
    }

    @Test
    void amountsConvertExactly() {
        assertEquals(Optional.of(new BigDecimal("250")), Htg.fromCheckout(new BigDecimal("250.000000")));
        assertEquals(Optional.of(new BigDecimal("19.9")), Htg.fromCheckout(new BigDecimal("19.900000")));
        assertEquals(Optional.empty(), Htg.fromCheckout(new BigDecimal("1.001000")), "MonCash cannot carry a thousandth");
        assertEquals(new BigDecimal("1500"), Htg.fromWallet(1500));
    }
}
