package ht.platform.checkout.service;

import ht.platform.checkout.TestApi;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.provider.SimulatorProvider;
import ht.platform.support.testing.PlatformHarness;
import io.quarkus.hibernate.reactive.panache.Panache;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class ReconcilerTest {

    @Inject
    Reconciler reconciler;

    @Inject
    PaymentIntentExpiry expiry;

    @Inject
    MovableClock clock;

    String key;

    @BeforeEach
    void setUp() {
        key = TestApi.key(TestApi.application("Reconcile " + System.nanoTime()), "test", null);
    }


    String status(String id) {
        return as(key).get("/api/v1/payment_intents/" + id).then().statusCode(200).extract().path("status");
    }

    void reconcile() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> reconciler.reconcile());
    }

    @Test
    void unknownIsNeverFailedBeforeTheProviderSaysSo() throws Throwable {
        String id = TestApi.createIntent(key, "20");
        TestApi.simulate(key, id, "provider_unknown_then_failed").statusCode(200).body("status", equalTo("provider_unknown"));
        // days pass: time alone never concludes
        clock.advance(Duration.ofDays(3));
        VertxContextSupport.subscribeAndAwait(() -> expiry.expireDue());
        assertEquals("provider_unknown", status(id));
        reconcile(); // provider: still unknown
        assertEquals("provider_unknown", status(id));
        reconcile(); // provider: still unknown
        assertNotEquals("failed", status(id));
        reconcile(); // provider: failed
        assertEquals("failed", status(id));
    }

    @Test
    void unknownThenSucceededIsSettledByAskingTheProvider() throws Throwable {
        String id = TestApi.createIntent(key, "20");
        TestApi.simulate(key, id, "provider_unknown_then_succeeded").statusCode(200).body("status", equalTo("provider_unknown"));
        for (int i = 0; i < 3; i++) {
            reconcile();
        }
        assertEquals("succeeded", status(id));
        as(key).get("/api/v1/payment_intents/" + id).then().body("amount_received", equalTo("20.000000"));
    }

    @Test
    void pendingIsSettledWhenTheProviderConcludes() throws Throwable {
        String id = TestApi.createIntent(key, "20");
        TestApi.simulate(key, id, "provider_pending").statusCode(200).body("status", equalTo("provider_pending"));
        clock.advance(Duration.ofDays(2));
        reconcile();
        assertEquals("provider_pending", status(id));
        as(key).body(Map.of("outcome", "succeeded")).post("/api/v1/test_helpers/provider_pending/" + id + "/settle")
                .then().statusCode(200).body("status", equalTo("succeeded"));

        String other = TestApi.createIntent(key, "20");
        TestApi.simulate(key, other, "provider_pending").statusCode(200);
        as(key).body(Map.of("outcome", "failed")).post("/api/v1/test_helpers/provider_pending/" + other + "/settle")
                .then().statusCode(200).body("status", equalTo("failed"));
        as(key).body(Map.of("outcome", "failed")).post("/api/v1/test_helpers/provider_pending/" + other + "/settle")
                .then().statusCode(409);
    }

    @Test
    void unpaidIntentsExpireWithTheClock() throws Throwable {
        String id = as(key).body(Map.of("amount", "5", "currency", "HTG", "expires_in", 300)).post("/api/v1/payment_intents")
                .then().statusCode(201).extract().path("id");
        VertxContextSupport.subscribeAndAwait(() -> expiry.expireDue());
        assertEquals("requires_payment_method", status(id));
        clock.advance(Duration.ofSeconds(301));
        VertxContextSupport.subscribeAndAwait(() -> expiry.expireDue());
        assertEquals("expired", status(id));
        TestApi.simulate(key, id, "succeeded").statusCode(409);
    }

    @Test
    void moneyThatMovedForAPaymentThatCannotCompleteIsGivenBack() throws Throwable {
        String id = TestApi.createIntent(key, "30");
        TestApi.simulate(key, id, "succeeded").statusCode(200).body("status", equalTo("succeeded"));
        // a second authorization recorded before a crash, its call never concluded (e.g. a double submit)
        Instant longAgo = clock.instant().minus(Duration.ofHours(1));
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> {
            PaymentAttempt orphan = new PaymentAttempt();
            orphan.id = "pat_orphan_" + System.nanoTime();
            orphan.paymentIntentId = id;
            orphan.kind = "authorize";
            orphan.provider = SimulatorProvider.NAME;
            orphan.paymentMethod = "test_card";
            orphan.amount = new BigDecimal("30.000000");
            orphan.status = "started";
            orphan.createdAt = longAgo;
            orphan.updatedAt = longAgo;
            return orphan.persist();
        }));

        reconcile(); // the rail takes the orphan's money for an intent that is already paid
        reconcile(); // ... so the reconciler reverses it

        List<PaymentAttempt> attempts = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() ->
                PaymentAttempt.<PaymentAttempt>list("paymentIntentId = ?1 order by createdAt", id)));
        assertEquals(1, attempts.stream().filter(a -> a.kind.equals("reversal") && a.status.equals("succeeded")).count(),
                "one reversal gave the money back: " + attempts.stream().map(a -> a.kind + ":" + a.status).toList());
        as(key).get("/api/v1/payment_intents/" + id).then().statusCode(200)
                .body("status", equalTo("succeeded")).body("amount_received", equalTo("30.000000"));
    }
}
