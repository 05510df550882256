package ht.platform.wallet.rest;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.Caller;
import ht.platform.support.feed.FeedApi;
import ht.platform.support.http.Paging;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Times;
import ht.platform.wallet.service.Views.DeliveryView;
import ht.platform.wallet.service.Views.ListView;
import ht.platform.wallet.service.Views.PingView;
import ht.platform.wallet.service.Views.RecoveryView;
import ht.platform.wallet.service.Views.SecretRotated;
import ht.platform.wallet.service.Views.WebhookCreated;
import ht.platform.wallet.service.Views.WebhookView;
import ht.platform.wallet.service.WebhookService;
import ht.platform.wallet.service.WebhookService.RegisterWebhook;
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

import java.util.Map;

/** Webhook addresses (source section 4) and the dashboard actions as API operations. */
@ApiKeyRequired
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks")
public class WebhookResource {

    public record RecoverWindow(String since, String until) { }

    @Inject
    Caller caller;

    @Inject
    WebhookService webhooks;

    @Inject
    FeedApi feed;

    @GET
    @Path("/events")
    @Operation(operationId = "listEvents", summary = FeedApi.SUMMARY, description = "Scope: webhooks:read. " + FeedApi.DESCRIPTION)
    public Uni<Map<String, Object>> events(@QueryParam("after") String after, @QueryParam("limit") String limit,
                                           @QueryParam("wait") String wait, @QueryParam("types") String types,
                                           @QueryParam("address") String address) {
        return feed.read(caller, after, limit, wait, types, address);
    }

    @GET
    @Path("/webhooks")
    @Operation(operationId = "listWebhooks", summary = "List the registered addresses (never their secrets)")
    public Uni<ListView<WebhookView>> list() {
        return webhooks.list(caller.require("webhooks:read"));
    }

    @POST
    @Path("/webhooks")
    @Operation(operationId = "createWebhook", summary = "Register an address (https, public; at most 3); the whsec_ secret is shown only here")
    @APIResponse(responseCode = "201", description = "The address and its secret", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = WebhookCreated.class)))
    public Uni<Response> register(RegisterWebhook body) {
        return webhooks.register(caller.require("webhooks:write"), body)
                .map(created -> Response.status(201).entity(created).build());
    }

    @GET
    @Path("/webhooks/{id}")
    @Operation(operationId = "retrieveWebhook", summary = "Retrieve an address")
    public Uni<WebhookView> get(@PathParam("id") String id) {
        return webhooks.get(caller.require("webhooks:read"), id);
    }

    @DELETE
    @Path("/webhooks/{id}")
    @Operation(operationId = "deleteWebhook", summary = "Remove an address; its pending deliveries are dropped")
    public Uni<Response> delete(@PathParam("id") String id) {
        return webhooks.delete(caller.require("webhooks:write"), id).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("/webhooks/{id}/reactivate")
    @Operation(operationId = "reactivateWebhook", summary = "Reactivate a paused address; held deliveries go out in order")
    public Uni<WebhookView> reactivate(@PathParam("id") String id) {
        return webhooks.reactivate(caller.require("webhooks:write"), id);
    }

    @POST
    @Path("/webhooks/{id}/rotate_secret")
    @Operation(operationId = "rotateWebhookSecret", summary = "Rotate the signing secret; the new one is shown once, the old one signs too for 24 h")
    public Uni<SecretRotated> rotate(@PathParam("id") String id) {
        return webhooks.rotate(caller.require("webhooks:write"), id);
    }

    @POST
    @Path("/webhooks/{id}/test")
    @Operation(operationId = "pingWebhook", summary = "Send a webhook.ping event to this address")
    @APIResponse(responseCode = "202", description = "The webhook.ping event queued", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PingView.class)))
    public Uni<Response> test(@PathParam("id") String id) {
        return webhooks.ping(caller.require("webhooks:write"), id).map(p -> Response.status(202).entity(p).build());
    }

    @GET
    @Path("/webhooks/{id}/deliveries")
    @Operation(operationId = "listWebhookDeliveries", summary = "Deliveries to this address, newest first, each with its attempts")
    public Uni<ListView<DeliveryView>> deliveries(@PathParam("id") String id, @QueryParam("limit") String limit,
                                                  @QueryParam("starting_after") String after) {
        var principal = caller.require("webhooks:read");
        return webhooks.deliveries(principal, id, Paging.of(limit, after));
    }

    @POST
    @Path("/webhooks/{id}/recover")
    @Operation(operationId = "recoverWebhook", summary = "Recover a window: queue again every failed or abandoned delivery to this address created in [since, until);"
            + " the same window asked twice resends nothing the second time")
    public Uni<RecoveryView> recover(@PathParam("id") String id, RecoverWindow body) {
        var principal = caller.require("webhooks:write");
        if (body == null) {
            throw ApiException.invalid(null, "A JSON body {since, until} is required");
        }
        return webhooks.recover(principal, id, Times.parse("since", body.since()), Times.parse("until", body.until()));
    }

    @GET
    @Path("/webhook_deliveries/{id}")
    @Operation(operationId = "retrieveWebhookDelivery", summary = "A delivery with its attempts")
    public Uni<DeliveryView> delivery(@PathParam("id") String id) {
        return webhooks.delivery(caller.require("webhooks:read"), id);
    }

    @POST
    @Path("/webhook_deliveries/{id}/resend")
    @Operation(operationId = "resendWebhookDelivery", summary = "Queue an abandoned or delivered delivery again (same event id)")
    public Uni<DeliveryView> resend(@PathParam("id") String id) {
        return webhooks.resend(caller.require("webhooks:write"), id);
    }
}
