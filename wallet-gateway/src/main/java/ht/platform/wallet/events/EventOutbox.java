package ht.platform.wallet.events;

import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.outbox.NewEvent;
import ht.platform.support.outbox.OutboxWriter;
import ht.platform.support.outbox.OutboxWriter.EventSubject;
import ht.platform.support.time.Timestamps;
import ht.platform.wallet.model.Payment;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gateway's events, written into the outbox inside the caller's transaction: the envelope
 * {@code {id, type, created_at (ms), data: {object}}} and one pending delivery per subscribed active or paused
 * address (a paused address's deliveries are held, not dropped).
 */
@ApplicationScoped
public class EventOutbox {

    @Inject
    OutboxWriter writer;

    @Inject
    WalletDeliveryPolicy policy;

    /** An event for every address of (project, mode) subscribed to {@code type}. Must run in a transaction. */
    public Uni<NewEvent> publish(String projectId, String mode, String type, String objectId, Object object) {
        EventSubject subject = new EventSubject(projectId, mode, type, objectId);
        return Panache.getSession().chain(session -> writer.publish(session, policy, subject, envelope(type, object)));
    }

    /**
     * The event of a payment written in the same statement ({@link OneStatementCreate}), its parameters from
     * {@code $from}.
     */
    public OutboxWriter.InOneStatement inOneStatement(Payment p, String type, Object object, int from) {
        return writer.inOneStatement(policy, new EventSubject(p.projectId, p.mode, type, p.id), envelope(type, object),
                OneStatementCreate.ROW, from);
    }

    /** An event for one address only (webhook.ping). Must run in a transaction. */
    public Uni<NewEvent> publishTo(String endpointId, String projectId, String mode, String type, Object object) {
        EventSubject subject = new EventSubject(projectId, mode, type, null);
        return Panache.getSession().chain(session -> writer.publishTo(session, policy, endpointId, subject,
                envelope(type, object)));
    }

    private static OutboxWriter.Envelope envelope(String type, Object object) {
        return (id, at) -> {
            Map<String, Object> envelope = new LinkedHashMap<>();
            envelope.put("id", id);
            envelope.put("type", type);
            envelope.put("created_at", Timestamps.millis(at));
            envelope.put("data", Map.of("object", object));
            return envelope;
        };
    }
}
