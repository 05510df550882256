package ht.platform.wallet.model;

import ht.platform.support.outbox.WebhookAttemptRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One HTTP attempt of a delivery: time, status, latency, error and the first 1 KiB of the answer. */
@Entity
@Table(name = "webhook_attempts", schema = "wallet")
public class WebhookAttempt extends WebhookAttemptRow {

    @Id
    public String id;
}
