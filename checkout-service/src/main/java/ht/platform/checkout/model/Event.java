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

/** An outbox event: written in the transaction of the change it reports; the payload is the exact body sent. */
@Entity
@Table(name = "events", schema = "checkout")
public class Event extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String type;

    @Column(name = "object_id", nullable = false)
    public String objectId;

    @Column(nullable = false)
    public String payload;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
