package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One HTTP attempt of a delivery: time, status, latency, error and the first 1 KiB of the answer. */
@Entity
@Table(name = "webhook_attempts", schema = "wallet")
public class WebhookAttempt extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "delivery_id", nullable = false)
    public String deliveryId;
    @Column(name = "attempt_number", nullable = false)
    public int attemptNumber;
    @Column(name = "attempted_at", nullable = false)
    public Instant attemptedAt;
    @Column(nullable = false)
    public boolean success;
    @Column(name = "status_code")
    public Integer statusCode;
    @Column(name = "latency_ms", nullable = false)
    public long latencyMs;
    public String error;
    @Column(name = "response_excerpt")
    public String responseExcerpt;
}
