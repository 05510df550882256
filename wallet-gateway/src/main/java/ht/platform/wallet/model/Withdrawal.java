package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A withdrawal to a mobile-money wallet; its total is reserved from the balance while it is open. */
@Entity
@Table(name = "withdrawals", schema = "wallet")
public class Withdrawal extends PanacheEntityBase {

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
    @Column(name = "destination_type", nullable = false)
    public String destinationType;
    @Column(nullable = false)
    public String msisdn;
    @Column(nullable = false)
    public String reference;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "processing_at")
    public Instant processingAt;
    @Column(name = "completed_at")
    public Instant completedAt;
    @Column(name = "failed_at")
    public Instant failedAt;
    @Column(name = "rejected_at")
    public Instant rejectedAt;
    @Column(name = "cancelled_at")
    public Instant cancelledAt;
    @Column(name = "failure_reason")
    public String failureReason;
    /** The rail's own words for a failure (e.g. MonCash's "Maximum Account Balance"), bounded. */
    @Column(name = "failure_message")
    public String failureMessage;
    /** Live: when the last MonCash transfer attempt began (null: none yet). */
    @Column(name = "payout_attempted_at")
    public Instant payoutAttemptedAt;
}
