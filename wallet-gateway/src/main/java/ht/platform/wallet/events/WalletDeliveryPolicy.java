package ht.platform.wallet.events;

import ht.platform.support.outbox.ClaimedDelivery;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxTables;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.Optional;

/**
 * The gateway's webhook rules (source section 6): an address receives its events in order, one in flight at a
 * time; a failure is retried after 1 min, 5 min, 15 min, 1 h, 6 h, 24 h, then the delivery is abandoned; the 20th
 * consecutive failed attempt pauses the address (its deliveries are held, not dropped) and a success resets the
 * count. Signed with {@code X-Gateway-Signature}.
 */
@ApplicationScoped
public class WalletDeliveryPolicy implements DeliveryPolicy {

    public static final String CHANNEL = "wallet_webhooks";

    static final OutboxTables TABLES = new OutboxTables(
            "wallet.events", "project_id", "object_id", "body", false,
            "wallet.webhook_deliveries", "endpoint_id", "seq", "created_at",
            "wallet.webhook_attempts", "'wha_' || substr(md5(gen_random_uuid()::text), 1, 24)", false,
            "wallet.webhook_endpoints", "delivered", "abandoned",
            "d.attempt_count + 1", "d.cycle_attempts");

    @Inject
    WalletSettings settings;

    private volatile RetrySchedule schedule;

    @Override
    public String name() {
        return "wallet";
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
        return Ordering.IN_ORDER_PER_DESTINATION;
    }

    @Override
    public RetrySchedule schedule() {
        RetrySchedule s = schedule;
        if (s == null) {
            s = RetrySchedule.parse(settings.webhooks().retrySchedule());
            schedule = s;
        }
        return s;
    }

    @Override
    public SignatureScheme scheme() {
        return SignatureScheme.GATEWAY;
    }

    @Override
    public Map<String, String> headers(ClaimedDelivery delivery) {
        return Map.of("X-Gateway-Event", delivery.eventType());
    }

    @Override
    public String destinationOpen() {
        return "t.status = 'active'";
    }

    @Override
    public String destinationColumns() {
        return "t.url AS url, t.secret_sealed AS secret, t.previous_secret_sealed AS previous_secret,"
                + " t.previous_secret_expires_at AS previous_secret_expires_at, t.id AS secret_bound_to";
    }

    @Override
    public String afterAttempt() {
        return "attempt_count = d.attempt_count + 1, last_attempt_at = r.at,"
                + " cycle_attempts = CASE WHEN r.ok THEN d.cycle_attempts ELSE d.cycle_attempts + 1 END,"
                + " delivered_at = CASE WHEN r.ok THEN r.at ELSE d.delivered_at END";
    }

    @Override
    public Optional<String> destinationAfterAttempt() {
        int pauseAfter = settings.webhooks().pauseAfterFailures();
        return Optional.of("consecutive_failures = CASE WHEN r.ok THEN 0 ELSE t.consecutive_failures + 1 END,"
                + " status = CASE WHEN NOT r.ok AND t.status = 'active' AND t.consecutive_failures + 1 >= " + pauseAfter
                + " THEN 'paused' ELSE t.status END,"
                + " paused_at = CASE WHEN NOT r.ok AND t.status = 'active' AND t.consecutive_failures + 1 >= " + pauseAfter
                + " THEN r.at ELSE t.paused_at END");
    }
}
