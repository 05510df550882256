package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** A registered webhook address; its secrets are sealed with AES-GCM, bound to the row id. */
@Entity
@Table(name = "webhook_endpoints", schema = "wallet")
public class WebhookEndpoint extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "project_id", nullable = false)
    public String projectId;
    @Column(nullable = false)
    public String mode;
    @Column(nullable = false)
    public String url;
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] events;
    @Column(nullable = false)
    public String status;
    @Column(name = "secret_sealed", nullable = false)
    public String secretSealed;
    @Column(name = "previous_secret_sealed")
    public String previousSecretSealed;
    @Column(name = "previous_secret_expires_at")
    public Instant previousSecretExpiresAt;
    @Column(name = "consecutive_failures", nullable = false)
    public int consecutiveFailures;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "paused_at")
    public Instant pausedAt;
}
