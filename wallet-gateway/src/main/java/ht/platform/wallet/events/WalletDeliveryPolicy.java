package ht.platform.wallet.events;

import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.StatusWords;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.OptionalInt;

/**
 * The gateway's webhook rules (source section 6): an address receives its events in order, one in flight at a
 * time; a failure is retried after 1 min, 5 min, 15 min, 1 h, 6 h, 24 h, then the delivery is abandoned; the 20th
 * consecutive failed attempt pauses the address (its deliveries are held, not dropped) and a success resets the
 * count. Signed with {@code X-Gateway-Signature}.
 */
@Singleton
public class WalletDeliveryPolicy extends DeliveryPolicy {

    @Inject
    public WalletDeliveryPolicy(WalletSettings settings) {
        super(new Rules("wallet", "wallet", Ordering.IN_ORDER_PER_DESTINATION,
                RetrySchedule.parse(settings.webhooks().retrySchedule()), SignatureScheme.GATEWAY,
                d -> Map.of("X-Gateway-Event", d.eventType()),
                OptionalInt.of(settings.webhooks().pauseAfterFailures()),
                new StatusWords(StatusWords.PENDING, StatusWords.DELIVERED, "abandoned")));
    }
}
