package ht.platform.kyc.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationView;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.outbox.OutboxWriter;
import ht.platform.support.outbox.OutboxWriter.EventSubject;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Instant;
import java.util.Set;

/**
 * Writes kyc events inside the caller's transaction (transactional outbox): the event row and a pending delivery
 * when the application has a webhook address for the event's mode (a test event goes to the test address only;
 * without one it is recorded, not sent).
 */
@ApplicationScoped
public class EventOutbox {

    /** The source's event kinds; {@code unable_to_verify} has none. */
    public static final Set<String> EVENT_STATUSES = Set.of("created", "started", "document_submitted", "processing",
            "retry_required", "verified", "rejected", "expired", "cancelled", "technical_error");

    @Inject
    ObjectMapper json;

    @Inject
    OutboxWriter writer;

    @Inject
    KycDeliveryPolicy policy;

    /** Records {@code verification.<status>} for the verification's current state; nothing for unable_to_verify. */
    public Uni<Void> statusChanged(Mutiny.Session session, Verification v, Instant now) {
        if (!EVENT_STATUSES.contains(v.status)) {
            return Uni.createFrom().voidItem();
        }
        return writer.publish(session, policy, subject(v), now, envelope(v)).replaceWithVoid();
    }

    /**
     * The {@code verification.created} event of a verification written in the same statement ({@link
     * OneStatementCreate}), at its creation time; its parameters from {@code $from}.
     */
    public OutboxWriter.InOneStatement createdInOneStatement(Verification v, int from) {
        return writer.inOneStatement(policy, subject(v), v.createdAt, envelope(v), OneStatementCreate.ROW, from);
    }

    private static EventSubject subject(Verification v) {
        return new EventSubject(v.applicationId, v.mode, "verification." + v.status, v.id);
    }

    private OutboxWriter.Envelope envelope(Verification v) {
        String type = "verification." + v.status;
        return (id, at) -> {
            ObjectNode payload = json.createObjectNode();
            payload.put("id", id);
            payload.put("object", "event");
            payload.put("type", type);
            payload.put("api_version", "1.0.0");
            payload.put("created", at.getEpochSecond());
            payload.put("created_at", Timestamps.seconds(at));
            payload.put("livemode", !v.test());
            payload.putObject("data").set("object", VerificationView.of(json, v));
            return payload;
        };
    }
}
