package ht.platform.checkout.jobs;

import ht.platform.checkout.service.PaymentIntentExpiry;
import ht.platform.checkout.service.Reconciler;
import ht.platform.support.jobs.Jobs;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** The scheduled passes of checkout: settling what the provider left open, and expiring unpaid intents. */
@ApplicationScoped
public class ReconcileJob {

    @Inject
    Reconciler reconciler;

    @Inject
    PaymentIntentExpiry expiry;

    void schedule(@Observes StartupEvent start, Jobs jobs) {
        jobs.every("checkout", "reconcile", "15s", "10s", reconciler::reconcile);
        jobs.every("checkout", "expiry", "30s", "5s", expiry::expireDue);
    }
}
