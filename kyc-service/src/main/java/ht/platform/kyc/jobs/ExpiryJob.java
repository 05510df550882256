package ht.platform.kyc.jobs;

import ht.platform.kyc.service.VerificationSweeps;
import ht.platform.support.health.SchemaPending;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Expires verifications that ran out and fails those stuck in processing (every 30 s). */
@ApplicationScoped
public class ExpiryJob {

    @Inject
    VerificationSweeps sweeps;

    @Scheduled(every = "30s", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> expire() {
        return sweeps.expireDue().chain(n -> sweeps.failStuckProcessing()).replaceWithVoid();
    }
}
