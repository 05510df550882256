package ht.platform.checkout.rest;

import ht.platform.checkout.service.Requests;
import ht.platform.checkout.service.Views;
import ht.platform.checkout.service.WebhookService;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import ht.platform.support.feed.FeedApi;
import ht.platform.support.http.Paging;
import ht.platform.support.time.Times;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks")
public class WebhookResource {

    @Inject
    Caller caller;

    @Inject
    WebhookService webhooks;

    @Inject
    FeedApi feed;

    @POST
    @Path("/webhook_endpoints")
    @Operation(operationId = "createWebhookEndpoint", summary = "Register a webhook destination; its secret is shown only in this response",
            description = "Scope: webhooks:manage. https URL with a public host; at most 10 per application. Deliveries carry"
                    + " Checkout-Event-Id, Checkout-Event-Type, Checkout-Timestamp and Checkout-Signature = hex HMAC-SHA256 of"
                    + " '<Checkout-Timestamp>.<raw body>' with the secret. Errors: 400 INVALID_REQUEST; 401; 403 INSUFFICIENT_SCOPE;"
                    + " 409 WEBHOOK_ENDPOINT_LIMIT.")
    @APIResponse(responseCode = "201", description = "The endpoint with its secret",
            content = @Content(schema = @Schema(implementation = Views.WebhookEndpointView.class)))
    public Uni<Response> create(Requests.CreateWebhookEndpoint body) {
        ApiPrincipal p = caller.require("webhooks:manage");
        if (body == null) {
            throw ApiException.invalid("url", "A JSON body is required");
        }
        return webhooks.create(p, body.url(), body.events(), body.delivery()).map(v -> Response.status(201).entity(v).build());
    }

    @GET
    @Path("/webhook_endpoints")
    @Operation(operationId = "listWebhookEndpoints", summary = "Webhook destinations of the application (this mode)", description = "Scope: webhooks:manage. Errors: 401; 403 INSUFFICIENT_SCOPE.")
    public Uni<Views.ListView<Views.WebhookEndpointView>> list() {
        return webhooks.list(caller.require("webhooks:manage"));
    }

    @DELETE
    @Path("/webhook_endpoints/{id}")
    @Operation(operationId = "deleteWebhookEndpoint", summary = "Delete a webhook destination", description = "Scope: webhooks:manage. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("id") String id) {
        return webhooks.delete(caller.require("webhooks:manage"), id).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("/webhook_endpoints/{id}/rotate_secret")
    @Consumes(MediaType.WILDCARD)
    @Operation(operationId = "rotateWebhookEndpointSecret", summary = "Rotate an endpoint's secret: the new one is shown only in this response; the previous one keeps signing"
            + " (a second hex in Checkout-Signature) until previous_secret_expires_at",
            description = "Scope: webhooks:manage. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND; 409 ROTATION_IN_PROGRESS.")
    public Uni<Views.SecretRotated> rotate(@PathParam("id") String id) {
        return webhooks.rotate(caller.require("webhooks:manage"), id);
    }

    @POST
    @Path("/webhook_endpoints/{id}/recover")
    @Operation(operationId = "recoverWebhookEndpoint", summary = "Recover a window: queue again every failed or dead delivery to this endpoint created in [since, until)",
            description = "Scope: webhooks:manage. The same window asked twice resends nothing the second time (replayed: true)."
                    + " Errors: 400 INVALID_REQUEST; 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Uni<Views.RecoveryView> recover(@PathParam("id") String id, Requests.RecoverWindow body) {
        ApiPrincipal p = caller.require("webhooks:manage");
        if (body == null) {
            throw ApiException.invalid("since", "A JSON body {since, until} is required");
        }
        return webhooks.recover(p, id, Times.parse("since", body.since()), Times.parse("until", body.until()));
    }

    @GET
    @Path("/events")
    @Operation(operationId = "listEvents", summary = "Events of the application: newest first, or with after= the event feed",
            description = "Scope: webhooks:manage. Without after (nor wait, types, address): the events newest first"
                    + " (limit, starting_after, type). With after: " + FeedApi.DESCRIPTION)
    public Uni<Object> events(@QueryParam("limit") String limit, @QueryParam("starting_after") String startingAfter,
                         @QueryParam("type") String type, @QueryParam("after") String after,
                         @QueryParam("wait") String wait, @QueryParam("types") String types,
                         @QueryParam("address") String address) {
        if (after != null || wait != null || types != null || address != null) {
            return feed.read(caller, after, limit, wait, types, address).map(page -> page);
        }
        ApiPrincipal p = caller.require("webhooks:manage");
        Paging paging = Paging.of(limit, startingAfter);
        return webhooks.events(p, paging.limit(), paging.startingAfter(), type).map(list -> list);
    }

    @GET
    @Path("/events/{id}")
    @Operation(operationId = "retrieveEvent", summary = "An event with its deliveries (pending, succeeded, dead) and every attempt",
            description = "Scope: webhooks:manage. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Uni<Views.EventView> event(@PathParam("id") String id) {
        return webhooks.event(caller.require("webhooks:manage"), id);
    }

    @POST
    @Path("/events/{id}/resend")
    @Operation(operationId = "resendEvent", summary = "Resend an event (dead letters included) with the same id and body",
            description = "Scope: webhooks:manage. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    @APIResponse(responseCode = "202", description = "Scheduled again")
    public Uni<Response> resend(@PathParam("id") String id) {
        return webhooks.resend(caller.require("webhooks:manage"), id).map(v -> Response.accepted(v).build());
    }
}
