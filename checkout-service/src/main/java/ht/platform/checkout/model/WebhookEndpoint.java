package ht.platform.checkout.model;

import ht.platform.support.outbox.WebhookEndpointRow;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A webhook destination of an application (per mode); status enabled or deleted. */
@Entity
@Table(name = "webhook_endpoints", schema = "checkout")
public class WebhookEndpoint extends WebhookEndpointRow {

    @Column(nullable = false)
    public String status;

    @Column(name = "application_id", nullable = false)
    public String applicationId;
}
