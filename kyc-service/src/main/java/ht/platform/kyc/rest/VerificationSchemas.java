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

    private VerificationSchemas() { }

    @Schema(name = "Verification", description = "A verification as read (source 2.3)")
    public record Verification(String id, @Schema(enumeration = "verification") String object,
                               @JsonProperty("external_user_id") String externalUserId, String status, String level,
                               @Schema(description = "the decision's result, null until decided") Map<String, Object> result,
                               @JsonProperty("reason_code") String reasonCode, @JsonProperty("reason_codes") List<String> reasonCodes,
                               @JsonProperty("created_at") Long createdAt, @JsonProperty("completed_at") Long completedAt,
                               @JsonProperty("expires_at") Long expiresAt, @JsonProperty("assurance_source") String assuranceSource,
                               @JsonProperty("government_registry_checked") boolean governmentRegistryChecked, int attempts,
                               boolean livemode, String reference, Map<String, String> metadata) { }

    @Schema(name = "CreatedVerification", description = "A verification just created or retried (source 2.2)")
    public record CreatedVerification(String id, @Schema(enumeration = "verification") String object, String status,
                                      @JsonProperty("verification_url") String verificationUrl,
                                      @JsonProperty("expires_at") Long expiresAt, @JsonProperty("created_at") Long createdAt,
                                      boolean livemode) { }
}
