package ht.platform.wallet.jobs;

import ht.platform.support.jobs.Jobs;
import ht.platform.support.outbox.FreshContext;
import ht.platform.wallet.service.PaymentService;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Expires unpaid payments whose {@code expires_at} has passed (scheduler; tests call {@link #runNow()}). */
@ApplicationScoped
public class ExpiryJob {

    @Inject
    PaymentService payments;

    @Inject
    Vertx vertx;

    void schedule(@Observes StartupEvent start, Jobs jobs) {
        jobs.every("wallet", "expiry", "15s", "5s", this::runNow);
    }

    /** Expires what is due now, on a fresh safe Vert.x context; answers how many payments expired. */
    public Uni<Integer> runNow() {
        return FreshContext.run(vertx, payments::expireDue);
    }
}
