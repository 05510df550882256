package ht.platform.support.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.ids.Ids;
import ht.platform.support.time.DatabaseTime;
import ht.platform.support.trace.EventTraces;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes an event into the outbox inside the caller's transaction (the one that changes the state), in one
 * statement: the event row with its exact body, one pending delivery per destination that receives it
 * ({@link FanOut}), and the notification ({@link OutboxWakeup}) that wakes the delivery loop and the feed's
 * sequencer, which Postgres sends only if the transaction commits ({@link OutboxWakeup#EVENTS_ONLY} when no
 * destination got a delivery).
 */
@ApplicationScoped
public class OutboxWriter {

    @Inject
    ObjectMapper mapper;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    Clock clock;

    @Inject
    EventTraces traces;

    private final Map<String, String> sql = new ConcurrentHashMap<>();

    /** Who an event belongs to and what it is about; {@link #publish} gives it its id and time. */
    public record EventSubject(String owner, String mode, String type, String objectId) { }

    /** The service's envelope of an event, built from the id and time the writer gave it. */
    @FunctionalInterface
    public interface Envelope {
        Object of(String eventId, Instant createdAt);
    }

    /** An event for every destination of its owner and mode subscribed to its type, at the clock's now. */
    public Uni<NewEvent> publish(Mutiny.Session session, DeliveryPolicy policy, EventSubject subject, Envelope envelope) {
        return publish(session, policy, subject, clock.instant(), envelope);
    }

    /** An event for every destination of its owner and mode subscribed to its type, created at {@code at}. */
    public Uni<NewEvent> publish(Mutiny.Session session, DeliveryPolicy policy, EventSubject subject, Instant at,
                                 Envelope envelope) {
        return write(session, policy, subject, at, envelope, FanOut.SUBSCRIBERS, null);
    }

    /** An event for one destination only (a ping), whatever it subscribes to. */
    public Uni<NewEvent> publishTo(Mutiny.Session session, DeliveryPolicy policy, String destinationId,
                                   EventSubject subject, Envelope envelope) {
        return write(session, policy, subject, clock.instant(), envelope, "t.id = :destination", destinationId);
    }

    private Uni<NewEvent> write(Mutiny.Session session, DeliveryPolicy policy, EventSubject subject, Instant at,
                                Envelope envelope, String audience, String destinationId) {
        NewEvent event = newEvent(subject, DatabaseTime.of(at), envelope);
        byte[] body;
        try {
            body = body(event);
        } catch (IllegalStateException e) {
            return Uni.createFrom().failure(e);
        }
        String statement = sql.computeIfAbsent(policy.name() + "|" + audience, k -> statement(policy, audience));
        // executeUpdate, not a select with a result class: Hibernate caches a select's plan under a key that never
        // equals the previous one for the same SQL, so every event added a colliding entry to its plan cache
        var query = session.createNativeQuery(statement)
                .setParameter("event", event.id()).setParameter("owner", event.owner())
                .setParameter("mode", event.mode()).setParameter("type", event.type())
                .setParameter("object", event.objectId()).setParameter("body", body)
                .setParameter("at", OffsetDateTime.ofInstant(event.createdAt(), ZoneOffset.UTC))
                .setParameter("trace", traces.ofNewEvent());
        if (destinationId != null) {
            query.setParameter("destination", destinationId);
        }
        return query.executeUpdate().replaceWith(event);
    }

    /**
     * The event part of one statement the caller writes on the plain reactive client, so that a creation is one round
     * trip: {@code with} holds the CTE entries {@code ev} (the event, written for each row of the caller's entry
     * {@code source}, which has one row when the object was written and none otherwise) and {@code d} (its deliveries);
     * {@code wakeUp} is a column of the final SELECT that notifies the delivery loop when the event was written;
     * {@code values} are the parameters {@code $from}… of both, in order. The event, its body and its deliveries are
     * those of {@link #publish}.
     */
    public record InOneStatement(NewEvent event, String with, String wakeUp, List<Object> values) { }

    /** See {@link InOneStatement}; the event is for every subscribed destination of its owner and mode, at now. */
    public InOneStatement inOneStatement(DeliveryPolicy policy, EventSubject subject, Envelope envelope, String source,
                                         int from) {
        return inOneStatement(policy, subject, clock.instant(), envelope, source, from);
    }

    /** See {@link InOneStatement}; the event is for every subscribed destination of its owner and mode, at {@code createdAt}. */
    public InOneStatement inOneStatement(DeliveryPolicy policy, EventSubject subject, Instant createdAt,
                                         Envelope envelope, String source, int from) {
        NewEvent event = newEvent(subject, DatabaseTime.of(createdAt), envelope);
        byte[] body = body(event);
        String at = "$" + (from + 6) + "::timestamptz";
        String with = sql.computeIfAbsent(policy.name() + "|one|" + source + "|" + from, k ->
                "ev AS (INSERT INTO " + policy.events() + " (id, owner_id, mode, type, object_id, body, created_at, on_feed,"
                + " trace_parent) SELECT $" + from + "::text, $" + (from + 1) + "::text, $" + (from + 2) + "::text, $"
                + (from + 3) + "::text, $" + (from + 4) + "::text, $" + (from + 5) + "::bytea, " + at + ", true, NULLIF($"
                + (from + 7) + "::text, '') FROM " + source + " RETURNING id, owner_id, mode, type),"
                + " d AS (" + FanOut.deliveries(policy, "ev", FanOut.SUBSCRIBERS, at) + " RETURNING 1)");
        String wakeUp = "(SELECT " + wakeUpCall(policy) + " FROM ev) AS woken";
        List<Object> values = java.util.Arrays.asList(event.id(), event.owner(), event.mode(), event.type(),
                event.objectId(), io.vertx.core.buffer.Buffer.buffer(body),
                OffsetDateTime.ofInstant(event.createdAt(), ZoneOffset.UTC), traces.ofNewEvent());
        return new InOneStatement(event, with, wakeUp, values);
    }

    private String statement(DeliveryPolicy policy, String audience) {
        boolean onFeed = audience.equals(FanOut.SUBSCRIBERS); // an event for one destination (a ping) is not on the feed
        return "WITH ev AS (INSERT INTO " + policy.events() + " (id, owner_id, mode, type, object_id, body, created_at,"
                + " on_feed, trace_parent) VALUES (:event, :owner, :mode, :type, :object, :body, :at, " + onFeed
                + ", NULLIF(:trace, ''))"
                + " RETURNING id, owner_id, mode, type),"
                + " d AS (" + FanOut.deliveries(policy, "ev", audience, ":at") + " RETURNING 1)"
                + " SELECT count(*) FROM (SELECT " + wakeUpCall(policy) + ") w";
    }

    private static NewEvent newEvent(EventSubject subject, Instant createdAt, Envelope envelope) {
        String id = Ids.hex("evt_", 16);
        return new NewEvent(id, subject.owner(), subject.mode(), subject.type(), subject.objectId(), createdAt,
                envelope.of(id, createdAt));
    }

    private byte[] body(NewEvent event) {
        try {
            return mapper.writeValueAsBytes(event.envelope());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event body could not be written", e);
        }
    }

    /** Wakes the delivery loop, or only the feed when the event has no delivery ({@link OutboxWakeup#EVENTS_ONLY}). */
    private String wakeUpCall(DeliveryPolicy policy) {
        return wakeup.notifyCall(policy.channel(),
                "CASE WHEN EXISTS (SELECT 1 FROM d) THEN '' ELSE '" + OutboxWakeup.EVENTS_ONLY + "' END");
    }
}
