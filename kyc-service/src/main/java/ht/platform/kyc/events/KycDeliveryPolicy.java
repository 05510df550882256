package ht.platform.kyc.events;

import ht.platform.kyc.config.KycSettings;
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
 * The kyc webhook rules: events go to the application's webhook address of their mode (test and live apart: one
 * destination each in the outbox's table {@code destinations}), a bounded number at once, signed with {@code Kyc-Signature} (both secrets during a rotation); a failure is retried
 * after 1m, 5m, 30m, 2h, 6h, 12h, 24h, 24h, then the delivery is dead (visible and resendable by the operator). A
 * delivery is attempted even when the address was removed meanwhile: it fails visibly instead of waiting.
 */
@Singleton
public class KycDeliveryPolicy extends DeliveryPolicy {

    @Inject
    public KycDeliveryPolicy(KycSettings settings) {
        super(new Rules("kyc", "kyc", Ordering.CAPPED_PER_DESTINATION,
                RetrySchedule.parse(settings.webhooks().retrySchedule()), SignatureScheme.KYC,
                d -> Map.of("Kyc-Event-Id", d.eventId()), OptionalInt.empty(),
                new StatusWords("pending", "delivered", "dead")));
    }

    /** The destination id of an application's webhook address of one mode (also what its secrets are sealed to). */
    public static String destinationOf(String applicationId, String mode) {
        return "test".equals(mode) ? applicationId + "/test" : applicationId;
    }
}
