package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.kyc.provider.Evidence;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PostConstruct;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * The automatic decision of a live verification in processing: its photos opened, the {@link DecisionEngine} run on
 * the image workers within the time budget, the outcome recorded and the photos erased. A failed or overrun
 * decision is technical_error.
 */
@ApplicationScoped
@Startup // its metrics exist from the start, at 0
public class DecisionRun {

    private static final Logger LOG = Logger.getLogger(DecisionRun.class);

    @Inject
    KycSettings settings;

    @Inject
    DecisionEngine engine;

    @Inject
    ImageWorkers workers;

    @Inject
    ImageVault images;

    @Inject
    VerificationStore verifications;

    @Inject
    Transitions transitions;

    @Inject
    MeterRegistry registry;

    @PostConstruct
    void meter() {
        timer("technical_error");
    }

    Uni<Verification> decide(String id) {
        Timer.Sample started = Timer.start(registry);
        Uni<Map<String, byte[]>> opened = Panache.withSession(() -> images.open(id));
        return Panache.withSession(() -> verifications.find(id)).chain(v -> opened.chain(imgs -> {
            Instant now = transitions.now();
            Evidence evidence = new Evidence(v.documentType, v.country, imgs.get("document_front"), imgs.get("document_back"),
                    imgs.get("selfie"), null, LocalDate.ofInstant(now, ZoneOffset.UTC));
            // on the bounded image workers, never on the event loop, within the decision's time budget
            return workers.run(() -> engine.decide(evidence, now)).ifNoItem().after(settings.decision().timeBudget()).fail();
        })).onFailure().recoverWithItem(e -> {
            LOG.errorf("decision of %s failed: %s%s", id, e.getClass().getSimpleName(), e.getCause() == null ? "" : " (" + e.getCause().getClass().getSimpleName() + ")");
            return new DecisionEngine.Outcome("technical_error", List.of("processing_error"), null);
        }).invoke(outcome -> started.stop(timer(outcome.status()))).chain(outcome -> Panache.withTransaction(() -> verifications.lock(id).chain(v -> {
            if (!"processing".equals(v.status)) {
                return Uni.createFrom().item(v);
            }
            return transitions.finish(v, outcome.status(), outcome.reasonCodes(), outcome.result());
        })));
    }

    /** {@code kyc_decision_seconds{outcome}}: photos opened to outcome known, a histogram (p95 in the alerts). */
    private Timer timer(String outcome) {
        return Timer.builder("kyc_decision").tag("outcome", outcome).description("Time of a live verification's automatic decision")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(100)).maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
    }
}
