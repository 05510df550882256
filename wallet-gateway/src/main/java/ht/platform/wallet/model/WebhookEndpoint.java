package ht.platform.wallet.model;

import ht.platform.support.outbox.WebhookEndpointRow;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A registered webhook address of a project (per mode). Its status, active or paused, follows {@code paused_at} (a
 * generated column): the outbox's pause rule sets {@code paused_at} through the view {@code outbox_destinations}.
 */
@Entity
@Table(name = "webhook_endpoints", schema = "wallet")
public class WebhookEndpoint extends WebhookEndpointRow {

    @Column(insertable = false, updatable = false)
    public String status;

    @Column(name = "project_id", nullable = false)
    public String projectId;

    @Column(name = "consecutive_failures", nullable = false)
    public int consecutiveFailures;

    @Column(name = "paused_at")
    public Instant pausedAt;
}
