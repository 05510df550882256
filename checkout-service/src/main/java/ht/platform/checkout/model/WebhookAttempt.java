package ht.platform.checkout.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One try of a delivery: when, HTTP status, latency, error and the first 1 KiB of the answer. */
@Entity
@Table(name = "webhook_attempts", schema = "checkout")
public class WebhookAttempt extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

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
