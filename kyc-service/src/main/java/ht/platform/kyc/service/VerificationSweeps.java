package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.VerificationStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * The scheduler's passes over verifications that time ended: those whose validity ran out expire, those stuck in
 * processing end technical_error. Rows are taken FOR UPDATE SKIP LOCKED, so replicas share the work.
 */
@ApplicationScoped
public class VerificationSweeps {

    private static final Logger LOG = Logger.getLogger(VerificationSweeps.class);
    private static final int BATCH = 200;

    @Inject
    KycSettings settings;

    @Inject
    VerificationStore verifications;

    @Inject
    Transitions transitions;

    /** Expires what is due; answers how many expired. */
    public Uni<Integer> expireDue() {
        return Panache.withTransaction(() -> verifications.lockDueToExpire(transitions.now(), BATCH)
                .chain(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUniAndConcatenate(id -> verifications.find(id)
                                .chain(v -> transitions.finish(v, "expired", List.of("session_expired"), null)).replaceWith(1))
                        .collect().with(Collectors.summingInt(Integer::intValue))));
    }

    /**
     * A decision runs right after the selfie and takes seconds; a verification still {@code processing} long after
     * that lost its decision (the process stopped mid-way). It ends {@code technical_error} (event, images erased)
     * instead of hanging. Answers how many were ended.
     */
    public Uni<Integer> failStuckProcessing() {
        return Panache.withTransaction(() -> verifications.lockStuckInProcessing(transitions.now().minus(settings.decision().stuckAfter()), BATCH)
                .chain(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUniAndConcatenate(id -> verifications.find(id).invoke(v -> LOG.warnf(
                                        "verification %s stayed in processing since %s: ending it technical_error", id, v.updatedAt))
                                .chain(v -> transitions.finish(v, "technical_error", List.of("processing_error"), null)).replaceWith(1))
                        .collect().with(Collectors.summingInt(Integer::intValue))));
    }
}
