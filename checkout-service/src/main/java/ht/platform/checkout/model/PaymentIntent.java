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

/** A payment: amount, status (see PaymentIntentStatus), its hosted session and money received/refunded. */
@Entity
@Table(name = "payment_intents", schema = "checkout")
public class PaymentIntent extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false)
    public String status;

    @Column(nullable = false, precision = 20, scale = 6)
    public BigDecimal amount;

    @Column(name = "amount_received", nullable = false, precision = 20, scale = 6)
    public BigDecimal amountReceived;

    @Column(name = "amount_refunded", nullable = false, precision = 20, scale = 6)
    public BigDecimal amountRefunded;

    @Column(nullable = false)
    public String currency;

    @Column(name = "capture_method", nullable = false)
    public String captureMethod;

    public String description;

    @Column(name = "external_reference")
    public String externalReference;

    @Column(name = "return_url")
    public String returnUrl;

    @Column(name = "session_id", nullable = false)
    public String sessionId;

    @Column(name = "payment_link_id")
    public String paymentLinkId;

    @Column(name = "payment_method")
    public String paymentMethod;

    @Column(name = "last_error_code")
    public String lastErrorCode;

    @Column(name = "last_error_message")
    public String lastErrorMessage;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
