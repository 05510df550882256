package ht.platform.checkout.model;

import ht.platform.support.sql.NewestFirst;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * Reads of the event log with its deliveries and attempts, and the rescheduling of an event's deliveries (the
 * outbox writes the rows). Methods named {@code read…} open their own session; the others run inside the caller's
 * session or transaction.
 */
@ApplicationScoped
public class EventStore {

    public Uni<Event> byId(String id) {
        return Event.findById(id);
    }

    /**
     * Up to {@code limit} of an application's events in one mode after the cursor {@code after}, newest first;
     * {@code type} is optional.
     */
    public Uni<List<Event>> readPage(String applicationId, String mode, String type, String after, int limit) {
        return new NewestFirst<>(Event.class, "applicationId").page(applicationId, mode, "type", type, after,
                "starting_after must be the id of one of your events", limit);
    }

    /** The events about one object, newest first, at most {@code limit}. */
    public Uni<List<Event>> readAbout(String applicationId, String mode, String objectId, int limit) {
        return Panache.withSession(() -> Event.<Event>find("applicationId = ?1 and mode = ?2 and objectId = ?3 order by createdAt desc, id desc",
                applicationId, mode, objectId).range(0, limit - 1).list());
    }

    public Uni<List<WebhookDelivery>> deliveriesOf(String eventId) {
        return WebhookDelivery.<WebhookDelivery>find("eventId = ?1 order by createdAt, id", eventId).list();
    }

    public Uni<List<WebhookAttempt>> attemptsOf(List<String> deliveryIds) {
        return deliveryIds.isEmpty() ? Uni.createFrom().item(List.of())
                : WebhookAttempt.<WebhookAttempt>find("deliveryId in ?1 order by attemptNumber", deliveryIds).list();
    }

    /**
     * The event's deliveries to enabled endpoints start over (a fresh schedule), and endpoints subscribed since get
     * one; answers the session so the caller can wake the deliverer in the same transaction.
     */
    public Uni<Mutiny.Session> reschedule(Event e, OffsetDateTime now) {
        return Panache.getSession().chain(s -> s.createNativeQuery("UPDATE checkout.webhook_deliveries d SET status = 'pending',"
                                + " failed_attempts = 0, next_attempt_at = :now, lease_until = NULL, updated_at = :now"
                                + " FROM checkout.webhook_endpoints e WHERE d.event_id = :event AND e.id = d.endpoint_id"
                                + " AND e.status = 'enabled' AND d.status <> 'pending'")
                        .setParameter("now", now).setParameter("event", e.id).executeUpdate()
                        .chain(() -> s.createNativeQuery("INSERT INTO checkout.webhook_deliveries"
                                        + " (id, event_id, endpoint_id, status, failed_attempts, next_attempt_at, created_at, updated_at)"
                                        + " SELECT 'whd_' || md5(:event || e.id), :event, e.id, 'pending', 0, :now, :now, :now"
                                        + " FROM checkout.webhook_endpoints e WHERE e.application_id = :app AND e.mode = :mode"
                                        + " AND e.status = 'enabled' AND :type = ANY (e.events) ON CONFLICT (event_id, endpoint_id) DO NOTHING")
                                .setParameter("event", e.id).setParameter("now", now).setParameter("app", e.applicationId)
                                .setParameter("mode", e.mode).setParameter("type", e.type).executeUpdate())
                        .replaceWith(s));
    }
}
