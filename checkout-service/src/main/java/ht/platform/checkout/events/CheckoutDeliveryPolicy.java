package ht.platform.checkout.events;

import ht.platform.checkout.config.CheckoutSettings;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxTables;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.Optional;

/**
 * Checkout's webhook rules: each enabled endpoint receives up to a bounded number of deliveries at once, signed
 * with {@code Checkout-Timestamp} / {@code Checkout-Signature} over "&lt;timestamp&gt;.&lt;raw body&gt;"; a failure is
 * retried after 1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h, then the delivery goes to the dead letter ({@code dead}).
 */
@Singleton
public class CheckoutDeliveryPolicy extends DeliveryPolicy {

    public static final String CHANNEL = "checkout_outbox";

    static final OutboxTables TABLES = new OutboxTables(
            "checkout.events", "application_id", "object_id", "payload", true,
            "checkout.webhook_deliveries", "endpoint_id", "next_attempt_at", "created_at, updated_at",
            "checkout.webhook_attempts", null, false,
            "checkout.webhook_endpoints", "succeeded", "dead",
            "SELECT COALESCE(max(a.attempt_number), 0) + 1 FROM checkout.webhook_attempts a WHERE a.delivery_id = d.id",
            "d.failed_attempts");

    @Inject
    public CheckoutDeliveryPolicy(CheckoutSettings settings) {
        super(new Rules("checkout", CHANNEL, TABLES, Ordering.CAPPED_PER_DESTINATION,
                RetrySchedule.parse(settings.retrySchedule()), SignatureScheme.CHECKOUT,
                d -> Map.of("Checkout-Event-Id", d.eventId(), "Checkout-Event-Type", d.eventType()),
                "t.status = 'enabled'", ADDRESS_COLUMNS,
                "failed_attempts = d.failed_attempts + CASE WHEN r.ok THEN 0 ELSE 1 END, updated_at = r.at",
                Optional.empty()));
    }
}
