package ht.platform.support.outbox;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;

/**
 * The columns of a delivery to an endpoint (one event to one webhook address) that the engine reads and writes
 * ({@link OutboxTables}); a service's entity adds its table and its own bookkeeping columns.
 */
@MappedSuperclass
public abstract class WebhookDeliveryRow extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "event_id", nullable = false)
    public String eventId;

    @Column(name = "endpoint_id", nullable = false)
    public String endpointId;

    @Column(nullable = false)
    public String status;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
