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

/** A webhook destination of an application (per mode), with its own secret sealed at rest. */
@Entity
@Table(name = "webhook_endpoints", schema = "checkout")
public class WebhookEndpoint extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String url;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] events;

    @Column(name = "secret_sealed", nullable = false)
    public String secretSealed;

    /** After a rotation, the previous secret: it signs too until {@link #previousSecretExpiresAt}. */
    @Column(name = "previous_secret_sealed")
    public String previousSecretSealed;

    @Column(name = "previous_secret_expires_at")
    public Instant previousSecretExpiresAt;

    /** enabled, deleted */
    @Column(nullable = false)
    public String status;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
