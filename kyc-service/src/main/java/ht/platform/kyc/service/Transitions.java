package ht.platform.kyc.service;

import ht.platform.kyc.model.VerificationStatus;
import ht.platform.support.errors.ApiException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.events.EventOutbox;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.support.time.DatabaseTime;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A verification's status changes, each written with its event in the caller's transaction (the caller holds the
 * row's lock).
 */
@ApplicationScoped
public class Transitions {

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    VerificationStore verifications;

    @Inject
    EventOutbox outbox;

    @Inject
    ImageVault images;

    /** The instant of a change, at the database's precision. */
    public Instant now() {
        return DatabaseTime.now(clock);
    }

    /** A non-final move. */
    public Uni<Verification> move(Verification v, String status, Instant now) {
        checkMove(v, status);
        v.status = status;
        v.updatedAt = now;
        return saved(v, now);
    }

    /** Ends an attempt (final status or retry_required): reasons, result, images erased, event. */
    public Uni<Verification> finish(Verification v, String status, List<String> reasons, ObjectNode result) {
        checkMove(v, status);
        Instant now = now();
        v.status = status;
        v.reasonCodes = reasons.toArray(String[]::new);
        v.reasonCode = reasons.isEmpty() ? null : reasons.get(0);
        if (result != null) {
            v.result = text(result);
        }
        v.updatedAt = now;
        if (!"retry_required".equals(status)) {
            v.completedAt = now;
        }
        if ("verified".equals(status)) {
            v.verifiedAt = now;
        }
        return images.erase(v, now).chain(() -> saved(v, now));
    }

    private Uni<Verification> saved(Verification v, Instant now) {
        return verifications.save(v).chain(s -> outbox.statusChanged(s, v, now)).replaceWith(v);
    }

    private String text(ObjectNode result) {
        try {
            return json.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every move of a verification is one the graph allows (the caller holds the row lock). */
    public static void checkMove(Verification v, String to) {
        if (!VerificationStatus.GRAPH.canMove(v.status, to)) {
            throw new ApiException(409, "INVALID_TRANSITION", "Cannot move from '" + v.status + "' to '" + to + "'");
        }
    }
}
