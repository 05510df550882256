package ht.platform.wallet.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.ids.Ids;
import ht.platform.support.time.Timestamps;
import ht.platform.wallet.model.OutboxEvent;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes events into the outbox inside the caller's transaction (the one that changes the state): the event
 * row with its exact body, one pending delivery per subscribed active or paused address, and a NOTIFY that
 * wakes the delivery loop when the transaction commits.
 */
@ApplicationScoped
public class EventWriter {

    public static final String CHANNEL = "wallet_webhooks";

    @Inject
    ObjectMapper mapper;

    @Inject
    Clock clock;

    /** An event for every address of (project, mode) subscribed to {@code type}. Must run in a transaction. */
    public Uni<OutboxEvent> publish(String projectId, String mode, String type, String objectId, Object object) {
        return write(projectId, mode, type, objectId, object, null);
    }

    /** An event for one address only (webhook.ping). Must run in a transaction. */
    public Uni<OutboxEvent> publishTo(String endpointId, String projectId, String mode, String type, Object object) {
        return write(projectId, mode, type, null, object, endpointId);
    }

    private Uni<OutboxEvent> write(String projectId, String mode, String type, String objectId, Object object,
                                   String onlyEndpoint) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        OutboxEvent event = new OutboxEvent();
        event.id = Ids.hex("evt_", 16);
        event.projectId = projectId;
        event.mode = mode;
        event.type = type;
        event.objectId = objectId;
        event.createdAt = now;
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("id", event.id);
        envelope.put("type", type);
        envelope.put("created_at", Timestamps.millis(now));
        envelope.put("data", Map.of("object", object));
        try {
            event.body = mapper.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event body could not be written", e);
        }
        OffsetDateTime at = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        String targets = onlyEndpoint != null
                ? " FROM wallet.webhook_endpoints e WHERE e.id = :endpoint"
                : " FROM wallet.webhook_endpoints e WHERE e.project_id = :project AND e.mode = :mode"
                  + " AND e.status IN ('active', 'paused') AND :type = ANY (e.events)";
        return Panache.getSession().chain(session -> session.persist(event)
                .chain(session::flush)
                .chain(() -> {
                    var query = session.createNativeQuery("INSERT INTO wallet.webhook_deliveries"
                            + " (id, event_id, endpoint_id, status, attempt_count, cycle_attempts, next_attempt_at, created_at)"
                            + " SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), :event, e.id, 'pending', 0, 0, :now, :now"
                            + targets + " ORDER BY e.created_at");
                    query.setParameter("event", event.id).setParameter("now", at);
                    if (onlyEndpoint != null) {
                        query.setParameter("endpoint", onlyEndpoint);
                    } else {
                        query.setParameter("project", projectId).setParameter("mode", mode).setParameter("type", type);
                    }
                    return query.executeUpdate();
                })
                .chain(count -> count == 0 ? Uni.createFrom().item(0)
                        : session.createNativeQuery("SELECT pg_notify('" + CHANNEL + "', '')").getSingleResult().replaceWith(count))
                .replaceWith(event));
    }
}
