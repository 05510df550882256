package ht.platform.support.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.SmallRyeHealthReporter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code platform_readiness_up}: 1 while {@code /q/health/ready} would answer UP (the database reachable, the schema at
 * this build's migration), asked every {@code platform.readiness-every} (15 s), so an alert sees what the probe sees
 * without a Kubernetes metrics exporter.
 */
@ApplicationScoped
public class ReadinessGauge {

    private final AtomicInteger up = new AtomicInteger();

    @Inject
    SmallRyeHealthReporter health;

    @Inject
    MeterRegistry registry;

    void start(@Observes StartupEvent event) {
        Gauge.builder("platform_readiness_up", up, AtomicInteger::get)
                .description("1 while the readiness checks (database, schema) pass").register(registry);
    }

    @Scheduled(every = "${platform.readiness-every:15s}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> probe() {
        return health.getReadinessAsync()
                .invoke(h -> up.set(h.isDown() ? 0 : 1))
                .onFailure().invoke(e -> up.set(0))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
