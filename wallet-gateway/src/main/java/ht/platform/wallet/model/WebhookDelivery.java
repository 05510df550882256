package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Generated;

import java.time.Instant;

/** One event to one address: pending until delivered or abandoned. */
@Entity
@Table(name = "webhook_deliveries", schema = "wallet")
public class WebhookDelivery extends PanacheEntityBase {

    @Id
    public String id;
    @Generated
    @Column(insertable = false, updatable = false)
    public Long seq;
    @Column(name = "event_id", nullable = false)
    public String eventId;
    @Column(name = "endpoint_id", nullable = false)
    public String endpointId;
    @Column(nullable = false)
    public String status;
    @Column(name = "attempt_count", nullable = false)
    public int attemptCount;
    @Column(name = "cycle_attempts", nullable = false)
    public int cycleAttempts;
    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;
    @Column(name = "lease_until")
    public Instant leaseUntil;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "last_attempt_at")
    public Instant lastAttemptAt;
    @Column(name = "delivered_at")
    public Instant deliveredAt;
}
