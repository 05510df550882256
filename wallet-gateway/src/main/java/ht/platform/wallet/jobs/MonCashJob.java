package ht.platform.wallet.jobs;

import ht.platform.support.jobs.Jobs;
import ht.platform.wallet.service.MonCashPayments;
import ht.platform.wallet.service.WithdrawalPayouts;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Settles what the live MonCash rail left open, only by asking MonCash: open orders are looked up (paid, or lapsed
 * once their page expired and MonCash still shows nothing), money that credits nothing is given back, new live
 * withdrawals are paid out, unanswered payouts are looked up by reference. Does nothing without MONCASH_*.
 */
@ApplicationScoped
public class MonCashJob {

    @Inject
    MonCashPayments payments;

    @Inject
    WithdrawalPayouts payouts;

    void schedule(@Observes StartupEvent start, Jobs jobs) {
        jobs.every("wallet", "moncash", "10s", "5s", this::runNow);
    }

    /** One pass over payments, money to give back, then payouts; answers how many items were looked at. */
    public Uni<Integer> runNow() {
        return payments.reconcile().chain(orders -> payments.giveBack().map(back -> orders + back))
                .chain(done -> payouts.run().map(sent -> done + sent));
    }
}
