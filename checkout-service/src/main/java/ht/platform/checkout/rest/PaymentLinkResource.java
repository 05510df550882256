package ht.platform.checkout.rest;

import ht.platform.checkout.service.Requests;
import ht.platform.support.http.PublicUrls;
import ht.platform.checkout.service.LinkService;
import ht.platform.checkout.service.PaymentIntentService;
import ht.platform.checkout.service.Views;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/payment_links")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Payment links")
public class PaymentLinkResource {

    @Inject
    PublicUrls urls;

    @Inject
    Caller caller;

    @Inject
    LinkService links;

    @Inject
    PaymentIntentService payments;

    @POST
    @Operation(operationId = "createPaymentLink", summary = "Create a shareable payment link; each visit creates a fresh payment intent",
            description = "Scope: payment_links:create. Errors: 400 INVALID_REQUEST, INVALID_JSON; 401; 403 INSUFFICIENT_SCOPE.")
    @APIResponse(responseCode = "201", description = "The payment link", content = @Content(schema = @Schema(implementation = Views.PaymentLinkView.class)))
    public Uni<Response> create(Requests.CreatePaymentLink body) {
        ApiPrincipal p = caller.require("payment_links:create");
        if (body == null) {
            throw ApiException.invalid("amount", "A JSON body is required");
        }
        return links.create(p, body.amount(), body.currency(), body.description(), body.external_reference(), body.return_url())
                .map(l -> Response.status(201).entity(Views.of(l, urls.base())).build());
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "retrievePaymentLink", summary = "A payment link", description = "Scope: payment_links:read. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Uni<Views.PaymentLinkView> get(@PathParam("id") String id) {
        ApiPrincipal p = caller.require("payment_links:read");
        return links.get(p, id).map(l -> Views.of(l, urls.base()));
    }
}
