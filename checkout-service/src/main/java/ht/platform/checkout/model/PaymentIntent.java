package ht.platform.checkout.model;

import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.vertx.mutiny.sqlclient.Row;
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

    /** The columns {@link #fromRow} reads, in the order of the mapping below. */
    public static final String COLUMNS = "id, application_id, mode, status, amount, amount_received, amount_refunded, "
            + "currency, capture_method, description, external_reference, return_url, session_id, payment_link_id, "
            + "payment_method, last_error_code, last_error_message, created_at, expires_at, updated_at";

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

    /** A detached payment intent read by the plain reactive client (the read-by-id path skips the ORM). */
    public static PaymentIntent fromRow(Row row) {
        PaymentIntent pi = new PaymentIntent();
        pi.id = row.getString("id");
        pi.applicationId = row.getString("application_id");
        pi.mode = row.getString("mode");
        pi.status = row.getString("status");
        pi.amount = row.getBigDecimal("amount");
        pi.amountReceived = row.getBigDecimal("amount_received");
        pi.amountRefunded = row.getBigDecimal("amount_refunded");
        pi.currency = row.getString("currency");
        pi.captureMethod = row.getString("capture_method");
        pi.description = row.getString("description");
        pi.externalReference = row.getString("external_reference");
        pi.returnUrl = row.getString("return_url");
        pi.sessionId = row.getString("session_id");
        pi.paymentLinkId = row.getString("payment_link_id");
        pi.paymentMethod = row.getString("payment_method");
        pi.lastErrorCode = row.getString("last_error_code");
        pi.lastErrorMessage = row.getString("last_error_message");
        pi.createdAt = Rows.instant(row, "created_at");
        pi.expiresAt = Rows.instant(row, "expires_at");
        pi.updatedAt = Rows.instant(row, "updated_at");
        return pi;
    }
}
