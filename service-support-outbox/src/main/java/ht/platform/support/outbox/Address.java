package ht.platform.support.outbox;

import java.time.Instant;
import java.util.List;

/**
 * A webhook address (a row of the table {@code destinations}) as the services show it; never its secrets.
 *
 * @param kind   push (to {@code url}) or pull (from the event feed)
 * @param events the event types it receives; null: every type
 * @param state  enabled or deleted
 * @param secretBoundTo what its secrets are sealed to (its id, or kyc's "&lt;application&gt;/test")
 */
public record Address(String id, String ownerId, String mode, String kind, String url, List<String> events,
                      String state, String secretBoundTo, int consecutiveFailures, Instant pausedAt, Instant previousSecretExpiresAt,
                      Instant createdAt) {

    public boolean pull() {
        return DeliveryKind.PULL.word().equals(kind);
    }

    public boolean paused() {
        return pausedAt != null;
    }
}
