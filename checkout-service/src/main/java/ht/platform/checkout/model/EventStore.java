package ht.platform.checkout.model;

import ht.platform.support.sql.NewestFirst;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Reads of the event log (the outbox writes the rows; its deliveries are read through service-support's
 * {@code DeliveryLog}). Methods named {@code read…} open their own session; the others run inside the caller's
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
}
