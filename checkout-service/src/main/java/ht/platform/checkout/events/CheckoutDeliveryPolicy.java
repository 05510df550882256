package ht.platform.checkout.events;

import ht.platform.checkout.config.CheckoutSettings;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.StatusWords;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.OptionalInt;

/**
 * Checkout's webhook rules: each enabled endpoint receives up to a bounded number of deliveries at once, signed
 * with {@code Checkout-Timestamp} / {@code Checkout-Signature} over "&lt;timestamp&gt;.&lt;raw body&gt;"; a failure is
 * retried after 1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h, then the delivery goes to the dead letter ({@code dead}).
 */
@Singleton
public class CheckoutDeliveryPolicy extends DeliveryPolicy {

    @Inject
    public CheckoutDeliveryPolicy(CheckoutSettings settings) {
        super(new Rules("checkout", "checkout", Ordering.CAPPED_PER_DESTINATION,
                RetrySchedule.parse(settings.retrySchedule()), SignatureScheme.CHECKOUT,
                d -> Map.of("Checkout-Event-Id", d.eventId(), "Checkout-Event-Type", d.eventType()),
                OptionalInt.empty(), new StatusWords(StatusWords.PENDING, "succeeded", StatusWords.DEAD)));
    }
}
