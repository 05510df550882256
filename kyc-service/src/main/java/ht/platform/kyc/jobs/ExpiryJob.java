package ht.platform.kyc.jobs;

import ht.platform.kyc.service.VerificationSweeps;
import ht.platform.support.jobs.Jobs;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Expires verifications that ran out and fails those stuck in processing (every 30 s). */
@ApplicationScoped
public class ExpiryJob {

    @Inject
    VerificationSweeps sweeps;

    void schedule(@Observes StartupEvent start, Jobs jobs) {
        jobs.every("kyc", "expiry", "30s", "10s", () -> sweeps.expireDue().chain(n -> sweeps.failStuckProcessing()));
    }
}
