package ht.platform.support.outbox;

import java.time.Instant;

/**
 * An event about to enter the outbox: its row and its envelope (the exact body every attempt sends, written
 * once as JSON).
 */
public record NewEvent(String id, String owner, String mode, String type, String objectId, Instant createdAt,
                       Object envelope) {
}
