package ht.platform.checkout.jobs;

import ht.platform.checkout.service.PaymentIntentExpiry;
import ht.platform.checkout.service.Reconciler;
import ht.platform.support.health.SchemaPending;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** The scheduled passes of checkout: settling what the provider left open, and expiring unpaid intents. */
@ApplicationScoped
public class ReconcileJob {

    private static final Logger LOG = Logger.getLogger(ReconcileJob.class);

    @Inject
    Reconciler reconciler;

    @Inject
    PaymentIntentExpiry expiry;

    @Scheduled(every = "${checkout-jobs.reconcile-every:15s}", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> reconcile() {
        return reconciler.reconcile().onFailure().invoke(e -> LOG.warnf("reconciliation failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    @Scheduled(every = "30s", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> expire() {
        return expiry.expireDue().onFailure().invoke(e -> LOG.warnf("expiry failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
