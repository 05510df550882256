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

/** One call to the payment rail; the id is the provider's idempotency key and lookup reference. */
@Entity
@Table(name = "payment_attempts", schema = "checkout")
public class PaymentAttempt extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "payment_intent_id", nullable = false)
    public String paymentIntentId;

    /** authorize, capture, release, reversal */
    @Column(nullable = false)
    public String kind;

    @Column(nullable = false)
    public String provider;

    @Column(name = "payment_method", nullable = false)
    public String paymentMethod;

    @Column(nullable = false, precision = 20, scale = 6)
    public BigDecimal amount;

    /** started (recorded, call not concluded), succeeded, failed, pending, unknown */
    @Column(nullable = false)
    public String status;

    /** test mode only: the simulator outcome chosen */
    public String scenario;

    @Column(name = "failure_code")
    public String failureCode;

    /** A rail that collects on its own page: where the customer pays, and until when. */
    @Column(name = "redirect_url")
    public String redirectUrl;

    @Column(name = "redirect_expires_at")
    public Instant redirectExpiresAt;

    /** The rail's own id of what it collected (MonCash transaction id). */
    @Column(name = "provider_reference")
    public String providerReference;

    /** reversal: the attempt whose money it returns. */
    @Column(name = "reverses_attempt_id")
    public String reversesAttemptId;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
