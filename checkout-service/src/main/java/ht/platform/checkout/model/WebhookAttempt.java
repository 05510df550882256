package ht.platform.checkout.model;

import ht.platform.support.outbox.WebhookAttemptRow;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One try of a delivery: when, HTTP status, latency, error and the first 1 KiB of the answer. */
@Entity
@Table(name = "webhook_attempts", schema = "checkout")
public class WebhookAttempt extends WebhookAttemptRow {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;
}
