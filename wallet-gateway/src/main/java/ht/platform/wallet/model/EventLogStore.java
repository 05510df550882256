package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.hibernate.reactive.mutiny.Mutiny;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads of the event log (events, deliveries, attempts) for the API and the dashboard, and the requeue of one
 * delivery; the outbox writes the rows. Every method runs inside the caller's session or transaction.
 */
@ApplicationScoped
public class EventLogStore {

    public Uni<WebhookDelivery> delivery(String id) {
        return WebhookDelivery.findById(id);
    }

    public Uni<WebhookDelivery> lockDelivery(String id) {
        return WebhookDelivery.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The delivery if it is one of the address's, or null. */
    public Uni<WebhookDelivery> deliveryOf(String endpointId, String id) {
        return WebhookDelivery.<WebhookDelivery>find("id = ?1 and endpointId = ?2", id, endpointId).firstResult();
    }

    /** Up to {@code limit} deliveries of one address, newest first, after the cursor {@code before} (null: from the newest). */
    public Uni<List<WebhookDelivery>> deliveriesOf(String endpointId, WebhookDelivery before, int limit) {
        return (before == null
                ? WebhookDelivery.<WebhookDelivery>find("endpointId = ?1 order by seq desc", endpointId)
                : WebhookDelivery.<WebhookDelivery>find("endpointId = ?1 and seq < ?2 order by seq desc", endpointId, before.seq))
                .range(0, limit - 1).list();
    }

    /**
     * Up to {@code limit} deliveries to every address of a project in one mode, newest first; the address, status,
     * event kind and cursor are optional.
     */
    public Uni<List<WebhookDelivery>> search(String projectId, String mode, String webhookId, String status, String eventType,
                                             WebhookDelivery before, int limit) {
        StringBuilder q = new StringBuilder("endpointId in (select e.id from WebhookEndpoint e"
                + " where e.projectId = :project and e.mode = :mode)");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("project", projectId);
        params.put("mode", mode);
        if (webhookId != null) {
            q.append(" and endpointId = :webhook");
            params.put("webhook", webhookId);
        }
        if (status != null) {
            q.append(" and status = :status");
            params.put("status", status);
        }
        if (eventType != null) {
            q.append(" and eventId in (select ev.id from OutboxEvent ev where ev.type = :type)");
            params.put("type", eventType);
        }
        if (before != null) {
            q.append(" and seq < :seq");
            params.put("seq", before.seq);
        }
        q.append(" order by seq desc");
        return WebhookDelivery.<WebhookDelivery>find(q.toString(), params).range(0, limit - 1).list();
    }

    public Uni<List<WebhookAttempt>> attemptsOf(Collection<String> deliveryIds) {
        return WebhookAttempt.<WebhookAttempt>find("deliveryId in ?1 order by attemptNumber", deliveryIds).list();
    }

    public Uni<List<OutboxEvent>> events(Collection<String> ids) {
        return OutboxEvent.<OutboxEvent>find("id in ?1", ids).list();
    }

    /** Writes pending changes; answers the session so the caller can wake the deliverer in the same transaction. */
    public Uni<Mutiny.Session> flush() {
        return Panache.getSession().chain(s -> s.flush().replaceWith(s));
    }
}
