package ht.platform.kyc.rest;

import ht.platform.kyc.model.VerificationView;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * The documented shapes of VerificationView's answers (built field by field from an allow-list, so the document
 * names them here).
 */
public final class VerificationSchemas {

    private static final String ISO_TIME = "ISO-8601 time, UTC (e.g. 2026-11-24T15:04:05Z)";

    private VerificationSchemas() { }

    @Schema(name = "Verification", description = "A verification as read (source 2.3)")
    public record Verification(String id, @Schema(enumeration = "verification") String object,
                               @JsonProperty("external_user_id") String externalUserId, String status, String level,
                               @Schema(description = "the decision's result, null until decided", nullable = true) Map<String, Object> result,
                               @Schema(nullable = true) @JsonProperty("reason_code") String reasonCode,
                               @JsonProperty("reason_codes") List<String> reasonCodes,
                               @Schema(description = ISO_TIME) @JsonProperty("created_at") String createdAt,
                               @Schema(description = ISO_TIME + "; null until the verification ends", nullable = true)
                               @JsonProperty("completed_at") String completedAt,
                               @Schema(description = ISO_TIME) @JsonProperty("expires_at") String expiresAt,
                               @Schema(nullable = true) @JsonProperty("assurance_source") String assuranceSource,
                               @JsonProperty("government_registry_checked") boolean governmentRegistryChecked, int attempts,
                               boolean livemode, @Schema(nullable = true) String reference,
                               @Schema(nullable = true) Map<String, String> metadata) { }

    @Schema(name = "CreatedVerification", description = "A verification just created or retried (source 2.2)")
    public record CreatedVerification(String id, @Schema(enumeration = "verification") String object, String status,
                                      @JsonProperty("verification_url") String verificationUrl,
                                      @Schema(description = ISO_TIME) @JsonProperty("expires_at") String expiresAt,
                                      @Schema(description = ISO_TIME) @JsonProperty("created_at") String createdAt,
                                      boolean livemode) { }
}
