package ht.platform.kyc.service;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code kyc_face_sidecar_up}: 1 while the face matcher answers with its models loaded (the capabilities' probe),
 * asked every 15 s on a worker thread, never by the scrape; 0 when it does not answer or none is configured.
 */
@ApplicationScoped
public class FaceSidecarGauge {

    private final AtomicInteger up = new AtomicInteger();

    @Inject
    DecisionEngine engine;

    @Inject
    MeterRegistry registry;

    void start(@Observes StartupEvent event) {
        Gauge.builder("kyc_face_sidecar_up", up, AtomicInteger::get)
                .description("1 while the face sidecar answers with its models loaded").register(registry);
    }

    @Scheduled(every = "15s", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void probe() {
        up.set(engine.faceModel().isPresent() ? 1 : 0);
    }
}
