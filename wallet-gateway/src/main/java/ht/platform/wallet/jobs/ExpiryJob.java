package ht.platform.wallet.jobs;

import ht.platform.support.health.SchemaPending;
import ht.platform.support.outbox.FreshContext;
import ht.platform.wallet.service.PaymentService;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Expires unpaid payments whose {@code expires_at} has passed (scheduler; tests call {@link #runNow()}). */
@ApplicationScoped
public class ExpiryJob {

    private static final Logger LOG = Logger.getLogger(ExpiryJob.class);

    @Inject
    PaymentService payments;

    @Inject
    Vertx vertx;

    @Scheduled(every = "${wallet.payments.expiry-tick:15s}", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> tick() {
        return runNow().onFailure().invoke(e -> LOG.warnf("payment expiry failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Expires what is due now, on a fresh safe Vert.x context; answers how many payments expired. */
    public Uni<Integer> runNow() {
        return FreshContext.run(vertx, payments::expireDue);
    }
}
