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

/** A shareable link: each visit creates a fresh payment intent. */
@Entity
@Table(name = "payment_links", schema = "checkout")
public class PaymentLink extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(nullable = false, precision = 20, scale = 6)
    public BigDecimal amount;

    @Column(nullable = false)
    public String currency;

    public String description;

    @Column(name = "external_reference")
    public String externalReference;

    @Column(name = "return_url")
    public String returnUrl;

    @Column(nullable = false)
    public boolean active;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
