package ht.platform.support.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.ids.Ids;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes an event into the outbox inside the caller's transaction (the one that changes the state), in one
 * statement: the event row with its exact body, one pending delivery per destination chosen by the caller's
 * condition, and the wake-up of the delivery loop ({@link OutboxWakeup}), which Postgres sends only if the
 * transaction commits.
 */
@ApplicationScoped
public class OutboxWriter {

    @Inject
    ObjectMapper mapper;

    @Inject
    OutboxWakeup wakeup;

    @Inject
    Clock clock;

    private final Map<String, String> sql = new ConcurrentHashMap<>();

    /** Who an event belongs to and what it is about; {@link #publish} gives it its id and time. */
    public record EventSubject(String owner, String mode, String type, String objectId) { }

    /** The service's envelope of an event, built from the id and time the writer gave it. */
    @FunctionalInterface
    public interface Envelope {
        Object of(String eventId, Instant createdAt);
    }

    /** {@link #publish(Mutiny.Session, DeliveryPolicy, EventSubject, Instant, Envelope, String, Map)} at the clock's now. */
    public Uni<NewEvent> publish(Mutiny.Session session, DeliveryPolicy policy, EventSubject subject, Envelope envelope,
                                 String destinations, Map<String, Object> params) {
        return publish(session, policy, subject, clock.instant(), envelope, destinations, params);
    }

    /** Gives the event an id and the time {@code at}, builds its envelope and writes it with its deliveries. */
    public Uni<NewEvent> publish(Mutiny.Session session, DeliveryPolicy policy, EventSubject subject, Instant at,
                                 Envelope envelope, String destinations, Map<String, Object> params) {
        Instant createdAt = at.truncatedTo(ChronoUnit.MICROS);
        String id = Ids.hex("evt_", 16);
        NewEvent event = new NewEvent(id, subject.owner(), subject.mode(), subject.type(), subject.objectId(), createdAt,
                envelope.of(id, createdAt));
        return write(session, policy, event, destinations, params).replaceWith(event);
    }

    /**
     * @param destinations SQL over alias {@code t} (the policy's destination table) choosing who receives it; its
     *                     named parameters come in {@code params} ({@code :event} and {@code :at} are set here)
     * @return how many deliveries were written
     */
    private Uni<Integer> write(Mutiny.Session session, DeliveryPolicy policy, NewEvent event, String destinations,
                              Map<String, Object> params) {
        byte[] body;
        try {
            body = mapper.writeValueAsBytes(event.envelope());
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("event body could not be written", e));
        }
        OutboxTables x = policy.tables();
        String statement = sql.computeIfAbsent(policy.name() + "|" + destinations, k -> statement(policy, destinations));
        var query = session.createNativeQuery(statement, Object[].class)
                .setParameter("event", event.id()).setParameter("owner", event.owner())
                .setParameter("mode", event.mode()).setParameter("type", event.type())
                .setParameter("object", event.objectId())
                .setParameter("body", x.textBody() ? new String(body, StandardCharsets.UTF_8) : body)
                .setParameter("at", OffsetDateTime.ofInstant(event.createdAt(), ZoneOffset.UTC));
        params.forEach(query::setParameter);
        return query.getSingleResult().map(row -> ((Number) row[0]).intValue());
    }

    private String statement(DeliveryPolicy policy, String destinations) {
        OutboxTables x = policy.tables();
        String times = x.deliveryTimes();
        String timeValues = String.join(", ", java.util.Collections.nCopies(times.split(",").length, ":at"));
        return "WITH ev AS (INSERT INTO " + x.events() + " (id, " + x.eventOwner() + ", mode, type, " + x.eventObject()
                + ", " + x.eventBody() + ", created_at) VALUES (:event, :owner, :mode, :type, :object, :body, :at) RETURNING id),"
                + " d AS (INSERT INTO " + x.deliveries() + " (id, event_id, " + x.destination() + ", status, next_attempt_at, "
                + times + ") SELECT 'whd_' || md5(ev.id || t.id), ev.id, t.id, 'pending', :at, " + timeValues
                + " FROM ev, " + x.destinations() + " t WHERE " + destinations + " ORDER BY t.created_at RETURNING 1)"
                + " SELECT (SELECT count(*) FROM d) AS deliveries,"
                + " (SELECT count(*) FROM (SELECT " + wakeup.notifyCall(policy.channel()) + " FROM d LIMIT 1) w) AS woken";
    }
}
