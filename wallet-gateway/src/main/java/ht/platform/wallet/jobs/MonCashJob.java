package ht.platform.wallet.jobs;

import ht.platform.support.health.SchemaPending;
import ht.platform.wallet.service.MonCashPayments;
import ht.platform.wallet.service.WithdrawalPayouts;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Settles what the live MonCash rail left open, only by asking MonCash: open orders are looked up (paid, or lapsed
 * once their page expired and MonCash still shows nothing), money that credits nothing is given back, new live
 * withdrawals are paid out, unanswered payouts are looked up by reference. Does nothing without MONCASH_*.
 */
@ApplicationScoped
public class MonCashJob {

    private static final Logger LOG = Logger.getLogger(MonCashJob.class);

    @Inject
    MonCashPayments payments;

    @Inject
    WithdrawalPayouts payouts;

    @Scheduled(every = "${wallet.moncash.tick:10s}", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> tick() {
        return runNow().onFailure().invoke(e -> LOG.warnf("MonCash settlement failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One pass over payments, money to give back, then payouts; answers how many items were looked at. */
    public Uni<Integer> runNow() {
        return payments.reconcile().chain(orders -> payments.giveBack().map(back -> orders + back))
                .chain(done -> payouts.run().map(sent -> done + sent));
    }
}
