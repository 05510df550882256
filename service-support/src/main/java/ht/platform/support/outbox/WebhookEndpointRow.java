package ht.platform.support.outbox;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/**
 * The columns of a webhook address that a service's view {@code outbox_destinations} shows the engine: where (or
 * pulled from the feed), which
 * events, its secrets sealed at rest and bound to the row id (the previous one signs too until it expires after a
 * rotation); a service's entity adds its table, its owner column and its own state columns.
 */
@MappedSuperclass
public abstract class WebhookEndpointRow extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String mode;

    /** Null for a pull address. */
    public String url;

    /** push or pull ({@link DeliveryKind}). */
    @Column(nullable = false)
    public String delivery;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] events;

    @Column(name = "secret_sealed", nullable = false)
    public String secretSealed;

    @Column(name = "previous_secret_sealed")
    public String previousSecretSealed;

    @Column(name = "previous_secret_expires_at")
    public Instant previousSecretExpiresAt;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
