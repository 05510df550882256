package ht.platform.checkout.model;

import ht.platform.support.outbox.WebhookDeliveryRow;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;

/** One event to one endpoint: pending until a 2xx, then succeeded; dead after the last scheduled retry. */
@Entity
@Table(name = "webhook_deliveries", schema = "checkout")
public class WebhookDelivery extends WebhookDeliveryRow {

    @Column(name = "failed_attempts", nullable = false)
    public int failedAttempts;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
