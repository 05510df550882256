package ht.platform.support.dashboard;

import java.time.Instant;
import java.util.Set;

/**
 * A signed-in merchant: one tenant (application or project) and one mode at a time. {@code liveAllowed} is false
 * for a session opened through a link made with a test key. {@code permissions} are those of the key (or the
 * operator's grant) that made the link: the session can do nothing that key could not. {@code createdBy} names
 * that key ({@code key:key_…}) or {@code operator}, for the audit.
 */
public record DashboardSession(String idHash, String ownerId, String mode, boolean liveAllowed, String csrfToken,
                               Instant createdAt, Instant expiresAt, Set<String> permissions, String createdBy) {

    public DashboardSession {
        permissions = permissions == null ? Set.of() : Set.copyOf(permissions);
    }

    public boolean may(String permission) {
        return permissions.contains(permission);
    }
}
