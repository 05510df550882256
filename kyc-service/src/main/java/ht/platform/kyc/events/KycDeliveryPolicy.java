package ht.platform.kyc.events;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.outbox.ClaimedDelivery;
import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.Ordering;
import ht.platform.support.outbox.OutboxTables;
import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;

/**
 * The kyc webhook rules: events go to the application's webhook address of their mode (test and live apart), a bounded number at once, signed with
 * {@code Kyc-Signature} (both secrets during a rotation); a failure is retried after 1m, 5m, 30m, 2h, 6h, 12h, 24h,
 * 24h, then the delivery is dead (visible and resendable by the operator).
 */
@ApplicationScoped
public class KycDeliveryPolicy implements DeliveryPolicy {

    public static final String CHANNEL = "kyc_outbox";

    static final OutboxTables TABLES = new OutboxTables(
            "kyc.events", "application_id", "verification_id", "payload", true,
            "kyc.deliveries", "application_id", "next_attempt_at", "created_at",
            "kyc.delivery_attempts", null, true,
            "kyc.applications", "delivered", "dead",
            "d.attempts + 1", "d.attempts");

    @Inject
    KycSettings settings;

    private RetrySchedule schedule;

    @PostConstruct
    void init() {
        schedule = RetrySchedule.parse(settings.webhooks().retrySchedule());
    }

    @Override
    public String name() {
        return "kyc";
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
        return SignatureScheme.KYC;
    }

    @Override
    public Map<String, String> headers(ClaimedDelivery delivery) {
        return Map.of("Kyc-Event-Id", delivery.eventId());
    }

    /** A delivery is attempted even when the address was removed meanwhile: it fails visibly instead of waiting. */
    @Override
    public String destinationOpen() {
        return "t.id IS NOT NULL";
    }

    @Override
    public String destinationColumns() {
        // test and live are apart: each mode's events go to its own address, signed with its own secret
        return "CASE WHEN ev.mode = 'test' THEN t.test_webhook_url ELSE t.webhook_url END AS url,"
                + " CASE WHEN ev.mode = 'test' THEN t.test_webhook_secret_sealed ELSE t.webhook_secret_sealed END AS secret,"
                + " CASE WHEN ev.mode = 'test' THEN t.test_previous_secret_sealed ELSE t.previous_secret_sealed END AS previous_secret,"
                + " CASE WHEN ev.mode = 'test' THEN t.test_previous_secret_expires_at ELSE t.previous_secret_expires_at END"
                + " AS previous_secret_expires_at,"
                + " CASE WHEN ev.mode = 'test' THEN t.id || '/test' ELSE t.id END AS secret_bound_to";
    }

    @Override
    public String afterAttempt() {
        return "attempts = r.n, last_status = r.code, last_error = r.error,"
                + " delivered_at = CASE WHEN r.ok THEN r.at ELSE d.delivered_at END,"
                + " dead_at = CASE WHEN r.status = 'dead' THEN r.at ELSE d.dead_at END";
    }
}
