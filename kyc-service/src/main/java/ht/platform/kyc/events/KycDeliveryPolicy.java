package ht.platform.kyc.events;

import ht.platform.kyc.config.KycSettings;
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
 * The kyc webhook rules: events go to the application's webhook address of their mode (test and live apart), a
 * bounded number at once, signed with {@code Kyc-Signature} (both secrets during a rotation); a failure is retried
 * after 1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h, then the delivery is dead (visible and resendable by the operator). A
 * delivery is attempted even when the address was removed meanwhile: it fails visibly instead of waiting.
 */
@Singleton
public class KycDeliveryPolicy extends DeliveryPolicy {

    public static final String CHANNEL = "kyc_outbox";

    static final OutboxTables TABLES = new OutboxTables(
            "kyc.events", "application_id", "verification_id", "payload", true,
            "kyc.deliveries", "application_id", "next_attempt_at", "created_at",
            "kyc.delivery_attempts", null, true,
            "kyc.applications", "delivered", "dead",
            "d.attempts + 1", "d.attempts");

    /** Test and live are apart: each mode's events go to its own address, signed with its own secret. */
    private static final String ADDRESS_OF_THE_MODE =
            "CASE WHEN ev.mode = 'test' THEN t.test_webhook_url ELSE t.webhook_url END AS url,"
            + " CASE WHEN ev.mode = 'test' THEN t.test_webhook_secret_sealed ELSE t.webhook_secret_sealed END AS secret,"
            + " CASE WHEN ev.mode = 'test' THEN t.test_previous_secret_sealed ELSE t.previous_secret_sealed END AS previous_secret,"
            + " CASE WHEN ev.mode = 'test' THEN t.test_previous_secret_expires_at ELSE t.previous_secret_expires_at END"
            + " AS previous_secret_expires_at,"
            + " CASE WHEN ev.mode = 'test' THEN t.id || '/test' ELSE t.id END AS secret_bound_to";

    @Inject
    public KycDeliveryPolicy(KycSettings settings) {
        super(new Rules("kyc", CHANNEL, TABLES, Ordering.CAPPED_PER_DESTINATION,
                RetrySchedule.parse(settings.webhooks().retrySchedule()), SignatureScheme.KYC,
                d -> Map.of("Kyc-Event-Id", d.eventId()),
                "t.id IS NOT NULL", ADDRESS_OF_THE_MODE,
                "attempts = r.n, last_status = r.code, last_error = r.error,"
                        + " delivered_at = CASE WHEN r.ok THEN r.at ELSE d.delivered_at END,"
                        + " dead_at = CASE WHEN r.status = 'dead' THEN r.at ELSE d.dead_at END",
                Optional.empty()));
    }
}
