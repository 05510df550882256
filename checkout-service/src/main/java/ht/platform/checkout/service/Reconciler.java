package ht.platform.checkout.service;

import ht.platform.checkout.config.CheckoutSettings;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.RefundStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;

/**
 * Settles what the rail left open, only by asking the rail (never because time passed):
 * pending/unknown attempts are looked up; attempts recorded but never answered (a crash between record and call)
 * are repeated with the same attempt id once stale; releases and reversals (money that moved for a payment that
 * cannot complete) are executed; pending refunds are asked again.
 */
@ApplicationScoped
public class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class);

    private static final int BATCH = 500;

    @Inject
    ProviderCalls calls;

    @Inject
    RefundService refunds;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    RefundStore refundRows;

    @Inject
    CheckoutSettings config;

    @Inject
    Clock clock;

    /** One pass; answers how many items were looked at. */
    public Uni<Integer> reconcile() {
        Instant stale = clock.instant().minus(config.staleAfter());
        return attempts.readUnsettled(stale, BATCH).chain(unsettled -> refundRows.readPending(stale, BATCH).chain(pending -> {
            Uni<Void> settled = Multi.createFrom().iterable(unsettled)
                    .onItem().transformToUniAndConcatenate(id -> attempts.read(id)
                            .chain(a -> a == null ? Uni.createFrom().voidItem() : settle(a))
                            .onFailure().invoke(e -> LOG.warnf("attempt %s: %s", id, e.toString())).onFailure().recoverWithNull())
                    .collect().last().replaceWithVoid();
            return settled.chain(() -> Multi.createFrom().iterable(pending)
                            .onItem().transformToUniAndConcatenate(id -> refunds.execute(id).onFailure().recoverWithNull())
                            .collect().last())
                    .replaceWith(unsettled.size() + pending.size());
        }));
    }

    /** Settles one attempt now (test helpers use it after settling the simulator). */
    public Uni<Void> settle(PaymentAttempt a) {
        return a.status.equals("started") ? calls.run(a) : calls.lookup(a);
    }
}
