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

/** A refund of all or part of a payment; its id is the provider's idempotency key. */
@Entity
@Table(name = "refunds", schema = "checkout")
public class Refund extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(name = "payment_intent_id", nullable = false)
    public String paymentIntentId;

    @Column(nullable = false, precision = 20, scale = 6)
    public BigDecimal amount;

    @Column(nullable = false)
    public String currency;

    /** pending, succeeded, failed */
    @Column(nullable = false)
    public String status;

    public String reason;

    @Column(name = "failure_reason")
    public String failureReason;

    /** The rail's own words for a failure (e.g. MonCash's "Maximum Account Balance"), bounded. */
    @Column(name = "failure_message")
    public String failureMessage;

    @Column(nullable = false)
    public String provider;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
