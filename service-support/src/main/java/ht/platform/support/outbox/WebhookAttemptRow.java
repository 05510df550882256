package ht.platform.support.outbox;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;

/**
 * The columns every service's attempt table has ({@link OutboxTables}: one row per send); a service's entity adds
 * its table and its id.
 */
@MappedSuperclass
public abstract class WebhookAttemptRow extends PanacheEntityBase {

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
