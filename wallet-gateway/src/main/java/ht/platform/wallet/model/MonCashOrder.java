package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;

/** A MonCash payment (CreatePayment orderId) a live payment sent its customer to; open until MonCash settles it. */
@Entity
@Table(name = "moncash_orders", schema = "wallet")
public class MonCashOrder extends PanacheEntityBase {

    /** The orderId MonCash knows: the payment id, a dash and the order's number. */
    @Id
    public String id;
    @Column(name = "payment_id", nullable = false)
    public String paymentId;
    @Column(name = "redirect_url")
    public String redirectUrl;
    @Column(name = "token_expires_at")
    public Instant tokenExpiresAt;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "settled_at")
    public Instant settledAt;
    public String outcome;
    @Column(name = "transaction_id")
    public String transactionId;
    /** What MonCash collected, to whom it goes back, and whether it did: only for money that credits nothing. */
    public BigDecimal collected;
    public String payer;
    @Column(name = "given_back")
    public String givenBack;

    /** The customer can still pay on MonCash's page at {@code now}. */
    public boolean payableAt(Instant now) {
        return settledAt == null && redirectUrl != null && tokenExpiresAt != null && now.isBefore(tokenExpiresAt);
    }
}
