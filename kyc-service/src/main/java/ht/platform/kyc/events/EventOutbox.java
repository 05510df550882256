package ht.platform.kyc.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.service.VerificationView;
import ht.platform.support.ids.Ids;
import ht.platform.support.outbox.OutboxWakeup;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

/**
 * Writes events inside the caller's transaction (transactional outbox): the event row, a pending delivery
 * when the application has a webhook address for the event's mode, and a NOTIFY that Postgres only sends after commit.
 */
@ApplicationScoped
public class EventOutbox {

    public static final String CHANNEL = "kyc_outbox";

    /** The source's event kinds; {@code unable_to_verify} has none. */
    public static final Set<String> EVENT_STATUSES = Set.of("created", "started", "document_submitted", "processing",
            "retry_required", "verified", "rejected", "expired", "cancelled", "technical_error");

    @Inject
    ObjectMapper json;

    @Inject
    OutboxWakeup wakeup;

    /** Records {@code verification.<status>} for the verification's current state; nothing for unable_to_verify. */
    public Uni<Void> statusChanged(Mutiny.Session session, Verification v, Instant now) {
        if (!EVENT_STATUSES.contains(v.status)) {
            return Uni.createFrom().voidItem();
        }
        String type = "verification." + v.status;
        String eventId = Ids.hex("evt_", 16);
        ObjectNode payload = json.createObjectNode();
        payload.put("id", eventId);
        payload.put("object", "event");
        payload.put("type", type);
        payload.put("api_version", "1.0.0");
        payload.put("created", now.getEpochSecond());
        payload.put("created_at", Timestamps.seconds(now));
        payload.put("livemode", !v.test());
        payload.putObject("data").set("object", VerificationView.of(json, v));
        String body;
        try {
            body = json.writeValueAsString(payload);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        var at = now.atOffset(ZoneOffset.UTC);
        return session.createNativeQuery("INSERT INTO kyc.events (id, application_id, mode, type, verification_id, payload, created_at)"
                        + " VALUES (:id, :app, :mode, :type, :ver, :payload, :now)")
                .setParameter("id", eventId).setParameter("app", v.applicationId).setParameter("mode", v.mode)
                .setParameter("type", type).setParameter("ver", v.id).setParameter("payload", body).setParameter("now", at)
                .executeUpdate()
                .chain(() -> session.createNativeQuery("INSERT INTO kyc.deliveries (id, event_id, application_id, status, attempts,"
                                + " next_attempt_at, created_at) SELECT :id, :event, a.id, 'pending', 0, :now, :now"
                                // a test event goes to the test address only; without one it is recorded, not sent
                                + " FROM kyc.applications a WHERE a.id = :app"
                                + " AND (CASE WHEN CAST(:mode AS text) = 'test' THEN a.test_webhook_url ELSE a.webhook_url END) IS NOT NULL")
                        .setParameter("id", Ids.hex("whd_", 16)).setParameter("event", eventId).setParameter("app", v.applicationId)
                        .setParameter("mode", v.mode)
                        .setParameter("now", at).executeUpdate())
                .chain(inserted -> inserted == 0 ? Uni.createFrom().voidItem() : wakeup.notifyInTransaction(session, CHANNEL));
    }
}
