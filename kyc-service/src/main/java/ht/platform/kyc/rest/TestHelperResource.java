package ht.platform.kyc.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.kyc.service.TestOutcomes;
import ht.platform.kyc.model.VerificationView;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.Caller;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;

/** Test-mode helpers (test keys only; 403 for a live key): every status is reachable without the page. */
@ApiKeyRequired
@Path("/api/v1/test_helpers/verifications/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Test helpers")
public class TestHelperResource {

    public record Complete(String outcome, @JsonProperty("reason_codes") List<String> reasonCodes) { }

    public record Advance(String status) { }

    @Inject
    TestOutcomes outcomes;

    @Inject
    Caller caller;

    @Inject
    ObjectMapper json;

    @POST
    @Path("/complete")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "completeTestVerification", summary = "Drive a test verification to verified, rejected, retry_required, unable_to_verify or technical_error")
    public Uni<Response> complete(@PathParam("id") String id, Complete body) {
        var principal = caller.requireTestMode();
        caller.require("verifications:write");
        return outcomes.complete(principal, id, body == null ? null : body.outcome(), body == null ? null : body.reasonCodes())
                .map(v -> Response.ok(VerificationView.of(json, v)).build());
    }

    @POST
    @Path("/advance")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "advanceTestVerification", summary = "Move a test verification forward to started, document_submitted or processing")
    public Uni<Response> advance(@PathParam("id") String id, Advance body) {
        var principal = caller.requireTestMode();
        caller.require("verifications:write");
        return outcomes.advance(principal, id, body == null ? null : body.status())
                .map(v -> Response.ok(VerificationView.of(json, v)).build());
    }

    @POST
    @Path("/expire")
    @Consumes(MediaType.WILDCARD)
    @Operation(operationId = "expireTestVerification", summary = "Let a test verification's validity run out now")
    public Uni<Response> expire(@PathParam("id") String id) {
        var principal = caller.requireTestMode();
        caller.require("verifications:write");
        return outcomes.expire(principal, id).map(v -> Response.ok(VerificationView.of(json, v)).build());
    }
}
