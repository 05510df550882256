package ht.platform.kyc.service;

import ht.platform.kyc.model.VerificationView;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonProperty;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.RestrictionStore;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A subject is the pair (application, external_user_id), seen in the caller's mode. Its status is derived from
 * its verifications: restricted (operator, or too many rejections), verified while the latest decision is a
 * verification still valid, processing while one is under way, expired when the last verification ran out,
 * rejected when the latest decision rejected, otherwise unverified.
 */
@ApplicationScoped
@RegisterForReflection(ignoreNested = false)
public class SubjectService {

    public record SubjectStatus(@JsonProperty("external_user_id") String externalUserId, String status, String level,
                                @JsonProperty("verified_at") String verifiedAt, @JsonProperty("expires_at") String expiresAt,
                                @JsonProperty("assurance_source") String assuranceSource,
                                @JsonProperty("government_registry_checked") boolean governmentRegistryChecked) { }

    private static final Set<String> DECIDED = Set.of("verified", "rejected", "unable_to_verify");
    private static final Set<String> UNDER_WAY = Set.of("started", "document_submitted", "processing");

    @Inject
    KycSettings settings;

    @Inject
    Clock clock;

    @Inject
    VerificationStore verifications;

    @Inject
    RestrictionStore restrictions;

    public Uni<SubjectStatus> status(ApiPrincipal caller, String externalUserId) {
        if (externalUserId == null || externalUserId.isEmpty() || externalUserId.length() > 200) {
            throw new ApiException(404, "SUBJECT_NOT_FOUND", "No such subject");
        }
        return Panache.withSession(() -> status(caller.ownerId(), caller.mode(), externalUserId));
    }

    /** The subject's status in one mode, inside the caller's session. */
    public Uni<SubjectStatus> status(String applicationId, String mode, String externalUserId) {
        return verifications.ofSubject(applicationId, mode, externalUserId).chain(list -> restrictions
                .restricted(applicationId, mode, externalUserId).map(restricted -> derive(externalUserId, list, restricted)));
    }

    /** The end of a verified verification's validity ({@code verified_at} + 365 days by default). */
    public Instant validUntil(Verification v) {
        return v.verifiedAt.plus(settings.subject().verifiedValidity());
    }

    SubjectStatus derive(String externalUserId, List<Verification> list, boolean restricted) {
        if (list.isEmpty() && !restricted) {
            throw new ApiException(404, "SUBJECT_NOT_FOUND", "No verification exists for this external_user_id");
        }
        Instant now = clock.instant();
        long rejections = list.stream().filter(v -> "rejected".equals(v.status)).count();
        Verification latestDecided = list.stream().filter(v -> DECIDED.contains(v.status) && v.completedAt != null)
                .max(Comparator.comparing((Verification v) -> v.completedAt)).orElse(null);
        Verification lastVerified = list.stream().filter(v -> v.verifiedAt != null)
                .max(Comparator.comparing((Verification v) -> v.verifiedAt)).orElse(null);
        Instant validUntil = lastVerified == null ? null : validUntil(lastVerified);
        String status;
        if (restricted || rejections >= settings.subject().restrictAfterRejections()) {
            status = "restricted";
        } else if (latestDecided != null && "verified".equals(latestDecided.status) && validUntil.isAfter(now)) {
            status = "verified";
        } else if (list.stream().anyMatch(v -> UNDER_WAY.contains(v.status))) {
            status = "processing";
        } else if (latestDecided != null && "verified".equals(latestDecided.status)) {
            status = "expired";
        } else if (latestDecided != null && "rejected".equals(latestDecided.status)) {
            status = "rejected";
        } else {
            status = "unverified";
        }
        boolean showVerified = "verified".equals(status) || "expired".equals(status);
        return new SubjectStatus(externalUserId, status, showVerified ? lastVerified.level : null,
                showVerified ? Timestamps.seconds(lastVerified.verifiedAt) : null,
                showVerified ? Timestamps.seconds(validUntil) : null,
                VerificationView.ASSURANCE_SOURCE, false);
    }
}
