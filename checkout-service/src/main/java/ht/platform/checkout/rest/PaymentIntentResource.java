package ht.platform.checkout.rest;

import ht.platform.checkout.service.Requests;
import ht.platform.support.http.PublicUrls;
import ht.platform.checkout.service.PaymentIntentService;
import ht.platform.checkout.service.Views;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.http.Paging;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/payment_intents")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Payment intents")
public class PaymentIntentResource {

    @Inject
    PublicUrls urls;

    @Inject
    Caller caller;

    @Inject
    PaymentIntentService payments;

    @Inject
    Idempotency idempotency;


    @POST
    @Operation(operationId = "createPaymentIntent", summary = "Create a payment and its hosted payment address",
            description = "Scope: payment_intents:create. Optional Idempotency-Key: the same key and body replays the first"
                    + " answer exactly; another body is 409 IDEMPOTENCY_CONFLICT. Errors: 400 INVALID_REQUEST, INVALID_JSON,"
                    + " INVALID_IDEMPOTENCY_KEY; 401 UNAUTHENTICATED; 403 INSUFFICIENT_SCOPE; 409 IDEMPOTENCY_CONFLICT,"
                    + " IDEMPOTENCY_KEY_IN_USE; 413 PAYLOAD_TOO_LARGE.")
    @APIResponse(responseCode = "201", description = "The payment intent",
            content = @Content(schema = @Schema(implementation = Views.PaymentIntentView.class)))
    public Uni<Response> create(@Parameter(description = "optional idempotency key (≤ 200 visible ASCII)")
                                @HeaderParam("Idempotency-Key") String key, Requests.CreatePaymentIntent body) {
        return payments.create(caller.require("payment_intents:create"), key, body).map(s -> s.toResponse());
    }

    @GET
    @Operation(operationId = "listPaymentIntents", summary = "Latest payments of the application, newest first",
            description = "Scope: payment_intents:read. Cursor pagination with starting_after. Errors: 400 INVALID_REQUEST;"
                    + " 401 UNAUTHENTICATED; 403 INSUFFICIENT_SCOPE.")
    @APIResponse(responseCode = "200", description = "{object: list, data: [PaymentIntent], has_more}")
    public Uni<Views.ListView<Views.PaymentIntentView>> list(@QueryParam("limit") @Parameter(description = "1..100, default 10") String limit,
                                                             @QueryParam("starting_after") String startingAfter,
                                                             @QueryParam("status") String status) {
        ApiPrincipal p = caller.require("payment_intents:read");
        Paging paging = Paging.of(limit, startingAfter);
        return payments.list(p, paging.limit(), paging.startingAfter(), status);
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "retrievePaymentIntent", summary = "Authoritative state of a payment",
            description = "Scope: payment_intents:read. Errors: 401 UNAUTHENTICATED; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Uni<Views.PaymentIntentView> get(@PathParam("id") String id) {
        ApiPrincipal p = caller.require("payment_intents:read");
        return payments.get(p, id).map(pi -> Views.of(pi, urls.base()));
    }

    @POST
    @Path("/{id}/cancel")
    @Operation(operationId = "cancelPaymentIntent", summary = "Cancel a payment that can still be cancelled",
            description = "Scope: payment_intents:write. Allowed from requires_payment_method, requires_action and requires_capture"
                    + " (releases the reservation). Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND; 409 PAYMENT_INTENT_UNEXPECTED_STATE.")
    public Uni<Views.PaymentIntentView> cancel(@PathParam("id") String id) {
        ApiPrincipal p = caller.require("payment_intents:write");
        return payments.cancel(p, id).chain(pi -> payments.get(p, id)).map(pi -> Views.of(pi, urls.base()));
    }

    @POST
    @Path("/{id}/capture")
    @Operation(operationId = "capturePaymentIntent", summary = "Capture a reserved payment (manual capture)",
            description = "Scope: payment_intents:write. Only in requires_capture; optional amount_to_capture ≤ amount."
                    + " Errors: 400 INVALID_REQUEST; 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND; 409 PAYMENT_INTENT_UNEXPECTED_STATE.")
    public Uni<Views.PaymentIntentView> capture(@PathParam("id") String id, Requests.Capture body) {
        ApiPrincipal p = caller.require("payment_intents:write");
        return payments.capture(p, id, body == null ? null : body.amount_to_capture())
                .map(pi -> Views.of(pi, urls.base()));
    }

}
