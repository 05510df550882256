package ht.platform.checkout.events;

import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.OutboxWakeup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Wakes the shared delivery runner: at once on NOTIFY after a commit, and every second as the fallback. */
@ApplicationScoped
public class DeliveryLoop {

    @Inject
    DeliveryRunner runner;

    @Inject
    CheckoutDeliveryStore store;

    @Inject
    OutboxWakeup wakeup;

    void start(@Observes StartupEvent event) {
        wakeup.listen(Outbox.CHANNEL, () -> runner.wake(store));
    }

    @Scheduled(every = "1s", delayed = "2s")
    void tick() {
        runner.wake(store);
    }
}
