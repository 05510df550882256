package ht.platform.kyc.events;

import ht.platform.kyc.service.VerificationService;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.OutboxWakeup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Wakes the shared delivery loop every second and at once on NOTIFY; expires verifications that ran out. */
@ApplicationScoped
public class DeliveryLoop {

    @Inject
    DeliveryRunner runner;

    @Inject
    KycDeliveryStore store;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    VerificationService verifications;

    void start(@Observes StartupEvent event) {
        wakeup.listen(EventOutbox.CHANNEL, () -> runner.wake(store));
    }

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        runner.wake(store);
    }

    @Scheduled(every = "30s", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> expire() {
        return verifications.expireDue().chain(n -> verifications.failStuckProcessing()).replaceWithVoid();
    }
}
