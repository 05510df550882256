package ht.platform.wallet.model;

import ht.platform.support.testing.GenericPlans;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class PaymentStoreTest {

    /** Long before every payment the other tests create: at T0 only this test's payments can be due. */
    static final Instant T0 = Instant.parse("2000-01-01T00:00:00Z");

    @Inject
    PaymentStore store;

    @Inject
    Pool pool;

    @Inject
    MovableClock clock;

    /**
     * The API's read of one payment walks the primary key, also with a plan cached while the statistics predated most
     * of the owner's rows. With the owner in its WHERE clause it walked the owner's list index instead: in a benchmark
     * run, 12.7 ms a read instead of 0.007 ms.
     */
    @Test
    void theReadByIdWalksThePrimaryKeyWhateverTheStatistics() throws Exception {
        GenericPlans.assertOneOwnedReadWalksThePrimaryKey(PaymentStore.BY_ID, "wallet.payments", "project_id");
    }

    /**
     * The expiry pass selects in SQL what its HQL selected: unpaid payments due by now that no open MonCash order may
     * still pay, the longest due first, at most the limit.
     */
    @Test
    void theExpirySweepSelectsTheUnpaidPaymentsWhoseTimeIsUp() throws Throwable {
        String key = TestApi.key(TestApi.project("Expiry sweep " + System.nanoTime()), "test");
        List<String> ids = Stream.generate(() -> TestApi.payment(key, 100)).limit(8).toList();
        // the background expiry pass reads this clock: a day before T0, none of the payments below is due for it
        clock.advance(Duration.between(clock.instant(), T0.minus(Duration.ofDays(1))));
        try {
            String expired = set(ids.get(0), "expired", T0.minusSeconds(6));
            String dueOrderSettled = set(ids.get(1), "pending", T0.minusSeconds(5));
            order(dueOrderSettled, "-1", T0.minusSeconds(60));
            String orderOpen = set(ids.get(2), "pending", T0.minusSeconds(4));
            order(orderOpen, "-1", T0.minusSeconds(60));
            order(orderOpen, "-2", null);
            String dueLongest = set(ids.get(3), "created", T0.minusSeconds(3));
            String paid = set(ids.get(4), "succeeded", T0.minusSeconds(2));
            String duePending = set(ids.get(5), "pending", T0.minusSeconds(1));
            String dueNow = set(ids.get(6), "created", T0);
            String notYet = set(ids.get(7), "created", T0.plusSeconds(1));

            List<String> due = VertxContextSupport.subscribeAndAwait(() -> store.readExpired(T0, 10));
            assertEquals(List.of(dueOrderSettled, dueLongest, duePending, dueNow), due,
                    "not: " + List.of(expired, orderOpen, paid, notYet));
            assertEquals(due.subList(0, 2), VertxContextSupport.subscribeAndAwait(() -> store.readExpired(T0, 2)));
            List<Payment> before = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Payment.<Payment>find(
                    "from Payment p where p.status in ('created', 'pending') and p.expiresAt <= ?1 and not exists"
                            + " (from MonCashOrder o where o.paymentId = p.id and o.settledAt is null) order by p.expiresAt", T0)
                    .range(0, 9).list()));
            assertEquals(due, before.stream().map(p -> p.id).toList(), "the HQL it replaces");
        } finally {
            String[] all = ids.toArray(String[]::new);
            VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("DELETE FROM wallet.moncash_orders WHERE payment_id = ANY($1)")
                    .execute(Tuple.of(all))
                    .chain(() -> pool.preparedQuery("UPDATE wallet.payments SET status = 'failed' WHERE id = ANY($1)").execute(Tuple.of(all))));
        }
    }

    private String set(String id, String status, Instant expiresAt) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("UPDATE wallet.payments SET status = $2, expires_at = $3"
                + " WHERE id = $1").execute(Tuple.of(id, status, expiresAt.atOffset(ZoneOffset.UTC))));
        return id;
    }

    /** A MonCash order of the payment, open when {@code settledAt} is null. */
    private void order(String paymentId, String suffix, Instant settledAt) throws Throwable {
        OffsetDateTime settled = settledAt == null ? null : settledAt.atOffset(ZoneOffset.UTC);
        VertxContextSupport.subscribeAndAwait(() -> pool.preparedQuery("INSERT INTO wallet.moncash_orders (id, payment_id, created_at,"
                        + " settled_at, outcome) VALUES ($1, $2, $3, $4, $5)")
                .execute(Tuple.of(paymentId + suffix, paymentId, T0.minusSeconds(120).atOffset(ZoneOffset.UTC), settled,
                        settled == null ? null : "not_paid")));
    }
}
