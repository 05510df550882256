package ht.platform.wallet.model;

import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A payment collected through the mobile-money wallet. */
@Entity
@Table(name = "payments", schema = "wallet")
public class Payment extends PanacheEntityBase {

    /** The columns {@link #fromRow} reads, in the order of the mapping above. */
    public static final String COLUMNS = "id, project_id, mode, status, amount, fee, total, currency, reference, "
            + "description, return_url, page_token, created_at, expires_at, pending_at, paid_at, failed_at, expired_at, "
            + "failure_reason";

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

    /** A detached payment read by the plain reactive client (the read-by-id path skips the ORM). */
    public static Payment fromRow(Row row) {
        Payment p = new Payment();
        p.id = row.getString("id");
        p.projectId = row.getString("project_id");
        p.mode = row.getString("mode");
        p.status = row.getString("status");
        p.amount = row.getLong("amount");
        p.fee = row.getLong("fee");
        p.total = row.getLong("total");
        p.currency = row.getString("currency");
        p.reference = row.getString("reference");
        p.description = row.getString("description");
        p.returnUrl = row.getString("return_url");
        p.pageToken = row.getString("page_token");
        p.createdAt = Rows.instant(row, "created_at");
        p.expiresAt = Rows.instant(row, "expires_at");
        p.pendingAt = Rows.instant(row, "pending_at");
        p.paidAt = Rows.instant(row, "paid_at");
        p.failedAt = Rows.instant(row, "failed_at");
        p.expiredAt = Rows.instant(row, "expired_at");
        p.failureReason = row.getString("failure_reason");
        return p;
    }

    public boolean isFinal() {
        return PaymentStatus.GRAPH.isFinal(status);
    }
}
