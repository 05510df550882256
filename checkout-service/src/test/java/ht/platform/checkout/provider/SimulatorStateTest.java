package ht.platform.checkout.provider;

import ht.platform.checkout.TestApi;
import ht.platform.checkout.model.PaymentAttempt;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test-mode simulator keeps its memory in the database: another replica (a second simulator over the same
 * database, as after a restart) settles and refunds what this one authorized.
 */
@QuarkusTest
class SimulatorStateTest {

    @Inject
    Pool pool;

    String key;

    PaymentAttempt authorization(String intentId) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> PaymentAttempt.<PaymentAttempt>find(
                "paymentIntentId = ?1 and kind = 'authorize'", intentId).firstResult()));
    }

    @Test
    void anotherReplicaSettlesAndRefundsWhatThisOneAuthorized() throws Throwable {
        key = TestApi.key(TestApi.application("Replicas " + System.nanoTime()), "test", null);
        SimulatorProvider otherReplica = new SimulatorProvider(pool);

        String paid = TestApi.paidIntent(key, "40");
        PaymentAttempt auth = authorization(paid);
        ProviderResult refund = VertxContextSupport.subscribeAndAwait(() -> otherReplica.refund("pay_re_other" + System.nanoTime(),
                auth.id, new BigDecimal("40"), "HTG"));
        assertEquals(ProviderResult.Status.SUCCEEDED, refund.status(), "the other replica knows the authorization");
        assertEquals(ProviderResult.Status.SUCCEEDED,
                VertxContextSupport.subscribeAndAwait(() -> otherReplica.lookup(auth.id)).status());

        String pending = TestApi.createIntent(key, "15");
        TestApi.simulate(key, pending, "provider_pending").statusCode(200).body("status", equalTo("provider_pending"));
        PaymentAttempt pendingAuth = authorization(pending);
        assertTrue(VertxContextSupport.subscribeAndAwait(() -> otherReplica.settle(pendingAuth.id, true)));
        // this replica's reconciliation now reads what the other replica settled
        as(key).body(Map.of("outcome", "succeeded")).post("/api/v1/test_helpers/provider_pending/" + pending + "/settle")
                .then().statusCode(200).body("status", equalTo("succeeded"));

        String unknown = TestApi.createIntent(key, "16");
        TestApi.simulate(key, unknown, "provider_unknown_then_failed").statusCode(200);
        PaymentAttempt unknownAuth = authorization(unknown);
        assertEquals(ProviderResult.Status.UNKNOWN, VertxContextSupport.subscribeAndAwait(() -> otherReplica.lookup(unknownAuth.id)).status());
        assertEquals(ProviderResult.Status.UNKNOWN, VertxContextSupport.subscribeAndAwait(() -> otherReplica.lookup(unknownAuth.id)).status());
        assertEquals(ProviderResult.Status.FAILED, VertxContextSupport.subscribeAndAwait(() -> otherReplica.lookup(unknownAuth.id)).status(),
                "the countdown of unknown answers is shared");
    }
}
