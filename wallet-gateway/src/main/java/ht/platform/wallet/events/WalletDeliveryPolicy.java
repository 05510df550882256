package ht.platform.wallet.events;

import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxTables;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.Optional;

/**
 * The gateway's webhook rules (source section 6): an address receives its events in order, one in flight at a
 * time; a failure is retried after 1 min, 5 min, 15 min, 1 h, 6 h, 24 h, then the delivery is abandoned; the 20th
 * consecutive failed attempt pauses the address (its deliveries are held, not dropped) and a success resets the
 * count. Signed with {@code X-Gateway-Signature}.
 */
@Singleton
public class WalletDeliveryPolicy extends DeliveryPolicy {

    public static final String CHANNEL = "wallet_webhooks";

    static final OutboxTables TABLES = new OutboxTables(
            "wallet.events", "project_id", "object_id", "body", false,
            "wallet.webhook_deliveries", "endpoint_id", "seq", "created_at",
            "wallet.webhook_attempts", "'wha_' || substr(md5(gen_random_uuid()::text), 1, 24)", false,
            "wallet.webhook_endpoints", "delivered", "abandoned",
            "d.attempt_count + 1", "d.cycle_attempts");

    @Inject
    public WalletDeliveryPolicy(WalletSettings settings) {
        super(new Rules("wallet", CHANNEL, TABLES, Ordering.IN_ORDER_PER_DESTINATION,
                RetrySchedule.parse(settings.webhooks().retrySchedule()), SignatureScheme.GATEWAY,
                d -> Map.of("X-Gateway-Event", d.eventType()),
                "t.status = 'active'", ADDRESS_COLUMNS,
                "attempt_count = d.attempt_count + 1, last_attempt_at = r.at,"
                        + " cycle_attempts = CASE WHEN r.ok THEN d.cycle_attempts ELSE d.cycle_attempts + 1 END,"
                        + " delivered_at = CASE WHEN r.ok THEN r.at ELSE d.delivered_at END",
                Optional.of(pauseRule(settings.webhooks().pauseAfterFailures()))));
    }

    private static String pauseRule(int pauseAfter) {
        String pauses = "NOT r.ok AND t.status = 'active' AND t.consecutive_failures + 1 >= " + pauseAfter;
        return "consecutive_failures = CASE WHEN r.ok THEN 0 ELSE t.consecutive_failures + 1 END,"
                + " status = CASE WHEN " + pauses + " THEN 'paused' ELSE t.status END,"
                + " paused_at = CASE WHEN " + pauses + " THEN r.at ELSE t.paused_at END";
    }
}
