package ht.platform.checkout.model;

import ht.platform.checkout.TestApi;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class RefundStoreTest {

    /** Long before every refund the other tests create: only these refunds can have been created before T0. */
    static final Instant T0 = Instant.parse("2000-01-01T00:00:00Z");

    @Inject
    RefundStore store;

    @Inject
    Pool pool;

    private final List<String> created = new ArrayList<>();

    /** The reconciler's pass selects in SQL what its HQL selected: stale pending refunds, oldest update first, at most the limit. */
    @Test
    void theReconcilerSelectsTheRefundsStillPending() throws Throwable {
        String app = TestApi.application("Pending refunds " + System.nanoTime());
        String intent = TestApi.createIntent(TestApi.key(app, "test", null), "10");
        try {
            String pending = refund(app, intent, "pending", T0.minusSeconds(3600), 1);
            String succeeded = refund(app, intent, "succeeded", T0.minusSeconds(3600), 2);
            String pendingAtT0 = refund(app, intent, "pending", T0, 3);
            String pendingBefore = refund(app, intent, "pending", T0.minusSeconds(1), 4);
            String failed = refund(app, intent, "failed", T0.minusSeconds(3600), 5);
            String pendingLongest = refund(app, intent, "pending", T0.minusSeconds(7200), 6);

            List<String> stale = VertxContextSupport.subscribeAndAwait(() -> store.readPending(T0, 10));
            assertEquals(List.of(pending, pendingBefore, pendingLongest), stale, "not: " + List.of(succeeded, pendingAtT0, failed));
            assertEquals(stale.subList(0, 2), VertxContextSupport.subscribeAndAwait(() -> store.readPending(T0, 2)));
            List<Refund> before = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Refund
                    .<Refund>find("status = 'pending' and createdAt < ?1 order by updatedAt", T0).list()));
            assertEquals(stale, before.stream().map(r -> r.id).toList(), "the HQL it replaces");
        } finally {
            VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("DELETE FROM checkout.refunds WHERE id = ANY($1)")
                    .execute(Tuple.of(created.toArray(String[]::new))));
        }
    }

    /** A refund on a rail no replica knows (nothing to execute should one outlive the test), updated {@code n} s after T0 - 1 h. */
    private String refund(String app, String intent, String status, Instant createdAt, int n) throws Throwable {
        String id = "re_sweep_" + System.nanoTime();
        created.add(id);
        VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("INSERT INTO checkout.refunds (id, application_id, mode,"
                        + " payment_intent_id, amount, currency, status, provider, created_at, updated_at) VALUES ($1, $2, 'test', $3,"
                        + " $4, 'HTG', $5, 'no_rail', $6, $7)")
                .execute(Tuple.from(new Object[] {id, app, intent, BigDecimal.TEN, status, createdAt.atOffset(ZoneOffset.UTC),
                        T0.minusSeconds(3600).plusSeconds(n).atOffset(ZoneOffset.UTC)})));
        return id;
    }
}
