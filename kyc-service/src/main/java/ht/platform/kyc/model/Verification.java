package ht.platform.kyc.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.Set;

/** One identity verification of a person (external_user_id) for an application. */
@Entity
@Table(name = "verifications", schema = "kyc")
public class Verification extends PanacheEntityBase {

    public static final Set<String> IN_PROGRESS = Set.of("created", "started", "document_submitted", "processing", "retry_required");
    public static final Set<String> CANCELLABLE = Set.of("created", "started", "document_submitted", "retry_required");
    public static final Set<String> EXPIRABLE = CANCELLABLE;
    public static final Set<String> FINAL = Set.of("verified", "rejected", "unable_to_verify", "expired", "cancelled", "technical_error");

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(nullable = false)
    public String mode;

    @Column(name = "external_user_id", nullable = false)
    public String externalUserId;

    @Column(nullable = false)
    public String status;

    @Column(nullable = false)
    public String level;

    @Column(nullable = false)
    public String country;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "document_types", nullable = false)
    public String[] documentTypes;

    @Column(name = "document_type")
    public String documentType;

    @Column(name = "return_url")
    public String returnUrl;

    @Column(nullable = false)
    public String locale;

    public String reference;

    /** The client's metadata object as JSON text. */
    public String metadata;

    @Column(name = "page_token_hash", nullable = false)
    public String pageTokenHash;

    @Column(name = "consented_at")
    public Instant consentedAt;

    @Column(nullable = false)
    public int attempts;

    /** The read shape's result object as JSON text (checks and decided_at; never personal data). */
    public String result;

    @Column(name = "reason_code")
    public String reasonCode;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "reason_codes", nullable = false)
    public String[] reasonCodes;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Column(name = "verified_at")
    public Instant verifiedAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    @Column(name = "images_erased_at")
    public Instant imagesErasedAt;

    public boolean test() {
        return "test".equals(mode);
    }
}
