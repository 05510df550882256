package ht.platform.checkout.events;

import ht.platform.checkout.config.CheckoutSettings;
import ht.platform.support.outbox.ClaimedDelivery;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxTables;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checkout's webhook rules: each enabled endpoint receives up to a bounded number of deliveries at once, signed
 * with {@code Checkout-Timestamp} / {@code Checkout-Signature} over "&lt;timestamp&gt;.&lt;raw body&gt;"; a failure is
 * retried after 1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h, then the delivery goes to the dead letter ({@code dead}).
 */
@ApplicationScoped
public class CheckoutDeliveryPolicy implements DeliveryPolicy {

    public static final String CHANNEL = "checkout_outbox";

    static final OutboxTables TABLES = new OutboxTables(
            "checkout.events", "application_id", "object_id", "payload", true,
            "checkout.webhook_deliveries", "endpoint_id", "next_attempt_at", "created_at, updated_at",
            "checkout.webhook_attempts", null, false,
            "checkout.webhook_endpoints", "succeeded", "dead",
            "SELECT COALESCE(max(a.attempt_number), 0) + 1 FROM checkout.webhook_attempts a WHERE a.delivery_id = d.id",
            "d.failed_attempts");

    @Inject
    CheckoutSettings config;

    private RetrySchedule schedule;

    @PostConstruct
    void init() {
        schedule = RetrySchedule.parse(config.retrySchedule());
    }

    @Override
    public String name() {
        return "checkout";
    }

    @Override
    public String channel() {
        return CHANNEL;
    }

    @Override
    public OutboxTables tables() {
        return TABLES;
    }

    @Override
    public Ordering ordering() {
        return Ordering.CAPPED_PER_DESTINATION;
    }

    @Override
    public RetrySchedule schedule() {
        return schedule;
    }

    @Override
    public SignatureScheme scheme() {
        return SignatureScheme.CHECKOUT;
    }

    @Override
    public Map<String, String> headers(ClaimedDelivery delivery) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Checkout-Event-Id", delivery.eventId());
        headers.put("Checkout-Event-Type", delivery.eventType());
        return headers;
    }

    @Override
    public String destinationOpen() {
        return "t.status = 'enabled'";
    }

    @Override
    public String destinationColumns() {
        return "t.url AS url, t.secret_sealed AS secret, t.previous_secret_sealed AS previous_secret,"
                + " t.previous_secret_expires_at AS previous_secret_expires_at, t.id AS secret_bound_to";
    }

    @Override
    public String afterAttempt() {
        return "failed_attempts = d.failed_attempts + CASE WHEN r.ok THEN 0 ELSE 1 END, updated_at = r.at";
    }
}
