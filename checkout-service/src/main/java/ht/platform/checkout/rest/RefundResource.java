package ht.platform.checkout.rest;

import ht.platform.checkout.service.Requests;
import ht.platform.checkout.service.RefundService;
import ht.platform.checkout.service.Views;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.idempotency.Idempotency;
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
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/refunds")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Refunds")
public class RefundResource {

    @Inject
    Caller caller;

    @Inject
    RefundService refunds;

    @Inject
    Idempotency idempotency;


    @POST
    @Operation(operationId = "createRefund", summary = "Refund all or part of a payment",
            description = "Scope: refunds:create. Idempotency-Key is mandatory. The refund is answered pending; refund.succeeded"
                    + " or refund.failed follows. Errors: 400 IDEMPOTENCY_KEY_REQUIRED, INVALID_IDEMPOTENCY_KEY, INVALID_REQUEST;"
                    + " 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND; 409 REFUND_EXCEEDS_AVAILABLE, PAYMENT_INTENT_UNEXPECTED_STATE,"
                    + " IDEMPOTENCY_CONFLICT, IDEMPOTENCY_KEY_IN_USE.")
    @APIResponse(responseCode = "201", description = "The refund", content = @Content(schema = @Schema(implementation = Views.RefundView.class)))
    public Uni<Response> create(@Parameter(required = true) @HeaderParam("Idempotency-Key") String key, Requests.CreateRefund body) {
        return refunds.create(caller.require("refunds:create"), key, body).map(s -> s.toResponse());
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "retrieveRefund", summary = "State of a refund", description = "Scope: refunds:read. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Uni<Views.RefundView> get(@PathParam("id") String id) {
        ApiPrincipal p = caller.require("refunds:read");
        return refunds.get(p, id).map(Views::of);
    }
}
