package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A payment collected through the mobile-money wallet. */
@Entity
@Table(name = "payments", schema = "wallet")
public class Payment extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "project_id", nullable = false)
    public String projectId;
    @Column(nullable = false)
    public String mode;
    @Column(nullable = false)
    public String status;
    @Column(nullable = false)
    public long amount;
    @Column(nullable = false)
    public long fee;
    @Column(nullable = false)
    public long total;
    @Column(nullable = false)
    public String currency;
    @Column(nullable = false)
    public String reference;
    public String description;
    @Column(name = "return_url")
    public String returnUrl;
    @Column(name = "page_token", nullable = false)
    public String pageToken;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;
    @Column(name = "pending_at")
    public Instant pendingAt;
    @Column(name = "paid_at")
    public Instant paidAt;
    @Column(name = "failed_at")
    public Instant failedAt;
    @Column(name = "expired_at")
    public Instant expiredAt;
    @Column(name = "failure_reason")
    public String failureReason;

    public boolean isFinal() {
        return !"created".equals(status) && !"pending".equals(status);
    }
}
