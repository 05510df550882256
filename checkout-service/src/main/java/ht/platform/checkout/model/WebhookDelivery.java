package ht.platform.checkout.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.math.BigDecimal;
import java.time.Instant;

/** One event to one endpoint: pending until a 2xx, then succeeded; dead after the last scheduled retry. */
@Entity
@Table(name = "webhook_deliveries", schema = "checkout")
public class WebhookDelivery extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "event_id", nullable = false)
    public String eventId;

    @Column(name = "endpoint_id", nullable = false)
    public String endpointId;

    @Column(nullable = false)
    public String status;

    @Column(name = "failed_attempts", nullable = false)
    public int failedAttempts;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
