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
class PaymentAttemptStoreTest {

    /**
     * Long before every attempt the other tests record: ordered by their update, these attempts come before all others,
     * and only they can have been started before T0.
     */
    static final Instant T0 = Instant.parse("2000-01-01T00:00:00Z");

    @Inject
    PaymentAttemptStore store;

    @Inject
    Pool pool;

    private final List<String> recorded = new ArrayList<>();

    /** The reconciler's pass selects in SQL what its HQL selected: unsettled attempts, oldest update first, at most the limit. */
    @Test
    void theReconcilerSelectsTheAttemptsLeftOpen() throws Throwable {
        String intent = TestApi.createIntent(TestApi.key(TestApi.application("Unsettled " + System.nanoTime()), "test", null), "10");
        try {
            String pending = attempt(intent, "authorize", "pending", T0.minusSeconds(3600), 1);
            String succeeded = attempt(intent, "authorize", "succeeded", T0.minusSeconds(3600), 2);
            String unknown = attempt(intent, "capture", "unknown", T0.minusSeconds(3600), 3);
            String startedAtT0 = attempt(intent, "authorize", "started", T0, 4);
            String startedBefore = attempt(intent, "authorize", "started", T0.minusSeconds(1), 5);
            String failed = attempt(intent, "capture", "failed", T0.minusSeconds(3600), 6);
            String release = attempt(intent, "release", "started", T0.plusSeconds(3600), 7);
            String reversal = attempt(intent, "reversal", "started", T0, 8);

            List<String> open = VertxContextSupport.subscribeAndAwait(() -> store.readUnsettled(T0, 5));
            assertEquals(List.of(pending, unknown, startedBefore, release, reversal), open,
                    "not: " + List.of(succeeded, startedAtT0, failed));
            assertEquals(open.subList(0, 2), VertxContextSupport.subscribeAndAwait(() -> store.readUnsettled(T0, 2)));
            List<PaymentAttempt> before = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> PaymentAttempt
                    .<PaymentAttempt>find("status in ('pending', 'unknown') or (status = 'started' and (kind in ('release', 'reversal')"
                            + " or createdAt < ?1)) order by updatedAt", T0).range(0, 4).list()));
            assertEquals(open, before.stream().map(a -> a.id).toList(), "the HQL it replaces");
        } finally {
            VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("DELETE FROM checkout.payment_attempts WHERE id = ANY($1)")
                    .execute(Tuple.of(recorded.toArray(String[]::new))));
        }
    }

    /** An attempt on a rail no replica knows (nothing to settle should one outlive the test), updated {@code n} s after T0 - 1 h. */
    private String attempt(String intent, String kind, String status, Instant createdAt, int n) throws Throwable {
        String id = "pat_sweep_" + System.nanoTime();
        recorded.add(id);
        VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("INSERT INTO checkout.payment_attempts (id, payment_intent_id,"
                        + " kind, provider, payment_method, amount, status, created_at, updated_at) VALUES ($1, $2, $3, 'no_rail',"
                        + " 'test_card', $4, $5, $6, $7)")
                .execute(Tuple.from(new Object[] {id, intent, kind, BigDecimal.TEN, status, createdAt.atOffset(ZoneOffset.UTC),
                        T0.minusSeconds(3600).plusSeconds(n).atOffset(ZoneOffset.UTC)})));
        return id;
    }
}
