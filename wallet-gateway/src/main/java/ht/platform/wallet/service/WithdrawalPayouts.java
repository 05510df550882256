package ht.platform.wallet.service;

import ht.platform.rail.moncash.quarkus.MonCashPayouts.Outcome;
import ht.platform.support.time.DatabaseTime;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.model.Withdrawal;
import ht.platform.wallet.model.WithdrawalStore;
import ht.platform.wallet.provider.MonCashWallet;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Live withdrawals paid out through MonCash: requested -> processing (committed before any transfer, so a crash
 * leaves a withdrawal whose transfer is looked up), then a Transfert whose reference is the withdrawal id, after a
 * PrefundedBalance check. Sent: completed (the reservation is spent). Refused: failed (the reservation released).
 * No answer: it stays processing; once the attempt is older than {@code wallet.moncash.lookup-after} it is looked up
 * by reference, and sent again only if MonCash has no such transfer.
 */
@ApplicationScoped
public class WithdrawalPayouts {

    private static final Logger LOG = Logger.getLogger(WithdrawalPayouts.class);

    @Inject
    WithdrawalService withdrawals;

    @Inject
    MonCashWallet moncash;

    @Inject
    WalletSettings settings;

    @Inject
    WithdrawalStore store;

    @Inject
    Clock clock;

    /** One pass: new live withdrawals are sent, unanswered ones looked up; answers how many were attempted. */
    public Uni<Integer> run() {
        if (!moncash.configured()) {
            return Uni.createFrom().item(0);
        }
        return startRequested().chain(started -> claimStale().map(stale -> {
            List<Withdrawal> all = new ArrayList<>(started);
            all.addAll(stale);
            return all;
        })).chain(claimed -> Batch.inTurn(claimed, this::payOut,
                (w, e) -> LOG.warnf("withdrawal %s payout: %s", w.id, e.toString())));
    }

    /** requested -> processing (withdrawal.processing) with the attempt's start, committed before any transfer. */
    private Uni<List<Withdrawal>> startRequested() {
        Instant now = now();
        return Panache.withTransaction(() -> store.lockRequestedLive(settings.moncash().batch())
                .chain(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUniAndConcatenate(id -> store.byId(id).chain(w -> {
                            w.payoutAttemptedAt = now;
                            return withdrawals.apply(w, "process", null);
                        }))
                        .collect().asList()));
    }

    private Uni<List<Withdrawal>> claimStale() {
        Instant now = now();
        return store.claimUnanswered(now, now.minus(settings.moncash().lookupAfter()), settings.moncash().batch());
    }

    private Uni<Withdrawal> payOut(Withdrawal w) {
        return moncash.payOut(w.id, w.amount, w.msisdn, "Withdrawal " + w.reference).chain(outcome -> settle(w.id, outcome));
    }

    /** The transfer's outcome, under the row lock: completed, failed, or (unknown) still processing. */
    private Uni<Withdrawal> settle(String id, Outcome outcome) {
        return Panache.withTransaction(() -> store.lock(id).chain(w -> {
            if (!"processing".equals(w.status)) {
                return Uni.createFrom().item(w);
            }
            return switch (outcome.result()) {
                case SENT -> withdrawals.apply(w, "complete", null);
                case REFUSED -> {
                    w.failureMessage = outcome.detail();
                    yield withdrawals.apply(w, "fail", outcome.reason());
                }
                case UNKNOWN -> {
                    LOG.infof("withdrawal %s: MonCash outcome unknown (%s); looked up by reference later", w.id, outcome.detail());
                    yield Uni.createFrom().item(w);
                }
            };
        }));
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
