package ht.platform.support.outbox;

import java.time.Instant;

/**
 * A delivery leased to this replica, with what it takes to sign and send it. {@code lease} is the lease this
 * claim set: the attempt is recorded only while the row still carries it, so a replica whose lease ran out never
 * records over another's. {@code secretBoundTo} is what the sealed secrets are bound to; {@code traceParent} the
 * trace context of the request that committed the event (null when nothing traced it).
 */
public record ClaimedDelivery(String id, String destinationId, int attemptNumber, int failures, Instant lease,
                              String eventId, String eventType, String mode, byte[] body,
                              String url, String secret, String previousSecret, Instant previousSecretExpiresAt,
                              String secretBoundTo, String traceParent) {
}
