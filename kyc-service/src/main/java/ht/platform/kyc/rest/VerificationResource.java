package ht.platform.kyc.rest;

import ht.platform.support.auth.ApiKeyRequired;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.kyc.service.ProofService;
import ht.platform.kyc.service.SubjectService;
import ht.platform.kyc.service.VerificationService;
import ht.platform.kyc.model.VerificationView;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;


/** The verification API (source section 4). */
@ApiKeyRequired
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Verifications")
@RegisterForReflection(ignoreNested = false)
public class VerificationResource {

    public record ProofRequest(@JsonProperty("include_external_user_id") Boolean includeExternalUserId) { }

    public record ProofView(String proof, @JsonProperty("token_type") String tokenType, String alg, String kid,
                            @JsonProperty("expires_at") String expiresAt) { }

    @Inject
    VerificationService verifications;

    @Inject
    SubjectService subjects;

    @Inject
    ProofService proofs;

    @Inject
    Caller caller;

    @Inject
    ObjectMapper json;

    @POST
    @Path("/verifications")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createVerification", summary = "Create a verification (from the client's backend); Idempotency-Key is required")
    @APIResponse(responseCode = "200", description = "The verification and its verification_url", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = VerificationSchemas.CreatedVerification.class)))
    public Uni<Response> create(@HeaderParam("Idempotency-Key") String idempotencyKey, VerificationService.CreateRequest body) {
        var principal = caller.require("verifications:write");
        return verifications.create(principal, idempotencyKey, body).map(r -> r.toResponse());
    }

    @GET
    @Path("/verifications/{id}")
    @Operation(operationId = "retrieveVerification", summary = "Read a verification")
    @APIResponse(responseCode = "200", description = "The verification", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = VerificationSchemas.Verification.class)))
    public Uni<Response> get(@PathParam("id") String id) {
        var principal = caller.require("verifications:read");
        return verifications.get(principal, id).map(v -> ok(VerificationView.of(json, v)));
    }

    @POST
    @Path("/verifications/{id}/cancel")
    @Consumes(MediaType.WILDCARD)
    @Operation(operationId = "cancelVerification", summary = "Cancel a verification still in progress (409 VERIFICATION_NOT_CANCELLABLE otherwise)")
    @APIResponse(responseCode = "200", description = "The cancelled verification", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = VerificationSchemas.Verification.class)))
    public Uni<Response> cancel(@PathParam("id") String id) {
        var principal = caller.require("verifications:write");
        return verifications.cancel(principal, id).map(v -> ok(VerificationView.of(json, v)));
    }

    @POST
    @Path("/verifications/{id}/retry")
    @Consumes(MediaType.WILDCARD)
    @Operation(operationId = "retryVerification", summary = "Start a new attempt of a retry_required verification (409 MAX_ATTEMPTS_REACHED at the cap)")
    @APIResponse(responseCode = "200", description = "The new attempt and its verification_url", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = VerificationSchemas.CreatedVerification.class)))
    public Uni<Response> retry(@PathParam("id") String id) {
        var principal = caller.require("verifications:write");
        return verifications.retry(principal, id).map(c -> ok(VerificationView.created(json, c.verification(), c.verificationUrl())));
    }

    @POST
    @Path("/verifications/{id}/proof")
    @Consumes(MediaType.WILDCARD)
    @Operation(operationId = "createVerificationProof", summary = "Issue a short-lived EdDSA proof of a verified verification (409 VERIFICATION_NOT_VERIFIED, SUBJECT_RESTRICTED, VERIFICATION_EXPIRED or SUBJECT_NOT_VERIFIED otherwise)")
    @APIResponse(responseCode = "200", description = "The proof (a JWT)", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ProofView.class)))
    public Uni<Response> proof(@PathParam("id") String id,
            @RequestBody(required = false, description = "Optional; an empty body is {}",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ProofRequest.class)))
            String rawBody) {
        var principal = caller.require("verifications:read");
        boolean include = false;
        if (rawBody != null && !rawBody.isBlank()) {
            try {
                ProofRequest req = json.readValue(rawBody, ProofRequest.class);
                include = Boolean.TRUE.equals(req.includeExternalUserId());
            } catch (ApiException e) {
                throw e;
            } catch (com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException e) {
                throw new ApiException(400, "INVALID_REQUEST", "Unknown field '" + e.getPropertyName() + "'", e.getPropertyName());
            } catch (Exception e) {
                throw new ApiException(400, "INVALID_REQUEST", "The body must be {\"include_external_user_id\": true|false}");
            }
        }
        return proofs.issue(principal, id, include)
                .map(p -> ok(new ProofView(p.token(), "JWT", "EdDSA", p.kid(), Timestamps.seconds(p.expiresAt()))));
    }

    @GET
    @Path("/subjects/{external_user_id}/status")
    @Operation(operationId = "retrieveSubjectStatus", summary = "Status of a subject: (this application, external_user_id)")
    public Uni<SubjectService.SubjectStatus> subject(@PathParam("external_user_id") String externalUserId) {
        var principal = caller.require("subjects:read");
        return subjects.status(principal, externalUserId);
    }

    private static Response ok(Object entity) {
        return Response.ok(entity, MediaType.APPLICATION_JSON_TYPE).build();
    }
}
