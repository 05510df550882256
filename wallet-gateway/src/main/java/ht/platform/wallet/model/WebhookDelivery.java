package ht.platform.wallet.model;

import ht.platform.support.outbox.WebhookDeliveryRow;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.Generated;

import java.time.Instant;

/** One event to one address: pending until delivered or abandoned; {@code seq} keeps an address's events in order. */
@Entity
@Table(name = "webhook_deliveries", schema = "wallet")
public class WebhookDelivery extends WebhookDeliveryRow {

    @Generated
    @Column(insertable = false, updatable = false)
    public Long seq;

    @Column(name = "attempt_count", nullable = false)
    public int attemptCount;

    @Column(name = "cycle_attempts", nullable = false)
    public int cycleAttempts;

    @Column(name = "last_attempt_at")
    public Instant lastAttemptAt;

    @Column(name = "delivered_at")
    public Instant deliveredAt;
}
