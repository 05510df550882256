package ht.platform.wallet.events;

import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.outbox.OutboxWakeup;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Wakes the delivery loop: at once on NOTIFY after a commit, and every second as the fallback. */
@ApplicationScoped
public class DeliveryLoop {

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryStore store;

    @Inject
    OutboxWakeup wakeup;

    void start(@Observes StartupEvent event) {
        wakeup.listen(EventWriter.CHANNEL, () -> runner.wake(store));
    }

    @Scheduled(every = "${wallet.webhooks.tick:1s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        runner.wake(store);
    }
}
