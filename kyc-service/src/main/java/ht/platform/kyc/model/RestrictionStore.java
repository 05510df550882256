package ht.platform.kyc.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.ZoneOffset;

/** Operator restrictions of subjects (application, mode, external_user_id), in the caller's session. */
@ApplicationScoped
public class RestrictionStore {

    public Uni<Boolean> restricted(String applicationId, String mode, String externalUserId) {
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT count(*) FROM kyc.subject_restrictions WHERE application_id = :app AND mode = :mode AND external_user_id = :user",
                        Long.class)
                .setParameter("app", applicationId).setParameter("mode", mode).setParameter("user", externalUserId)
                .getSingleResult()).map(n -> ((Number) n).longValue() > 0);
    }

    /** Restricts the subject; restricting it again replaces the reason. */
    public Uni<Void> restrict(String applicationId, String mode, String externalUserId, String reason, Instant now) {
        return Panache.getSession().chain(s -> s
                .createNativeQuery("INSERT INTO kyc.subject_restrictions (application_id, mode, external_user_id, reason, created_at)"
                        + " VALUES (:app, :mode, :user, :reason, :now)"
                        + " ON CONFLICT (application_id, mode, external_user_id) DO UPDATE SET reason = EXCLUDED.reason")
                .setParameter("app", applicationId).setParameter("mode", mode).setParameter("user", externalUserId)
                .setParameter("reason", reason).setParameter("now", now.atOffset(ZoneOffset.UTC))
                .executeUpdate()).replaceWithVoid();
    }
}
