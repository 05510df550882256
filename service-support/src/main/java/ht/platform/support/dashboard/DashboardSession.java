package ht.platform.support.dashboard;

import java.time.Instant;

/**
 * A signed-in merchant: one tenant (application or project) and one mode at a time. {@code liveAllowed} is false
 * for a session opened through a link made with a test key.
 */
public record DashboardSession(String idHash, String ownerId, String mode, boolean liveAllowed, String csrfToken,
                               Instant createdAt, Instant expiresAt) {
}
