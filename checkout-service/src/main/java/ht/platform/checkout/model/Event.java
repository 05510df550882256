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

/**
 * An event of the outbox ({@code outbox_events}, service-support's schema): written in the transaction of the change
 * it reports; the body is the exact bytes sent.
 */
@Entity
@Table(name = "outbox_events", schema = "checkout")
public class Event extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "owner_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String type;

    @Column(name = "object_id")
    public String objectId;

    @Column(nullable = false)
    public byte[] body;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
