package ht.platform.support.dashboard;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.List;

/**
 * The routes of the webhook address pages under a service's {@link WebhookWords#addressPath()}: a service's subclass
 * names that path and carries {@link DashboardPage} and {@link SignedIn}; every action is {@link AddressActions}'.
 */
@Produces(MediaType.TEXT_HTML)
public abstract class AddressPages {

    @Inject
    AddressActions actions;

    @GET
    @Operation(summary = "Webhook addresses (HTML)")
    public Uni<Response> list(@QueryParam("n") String resent) {
        return actions.list(resent);
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Register an address; the page shows its secret once")
    public Uni<Response> register(@FormParam("url") String url, @FormParam("events") List<String> events,
                                  @FormParam("delivery") String delivery) {
        return actions.register(url, events, delivery);
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One address: its state, actions and latest deliveries (HTML)")
    public Uni<Response> address(@PathParam("id") String id, @QueryParam("n") String resent) {
        return actions.address(id, resent);
    }

    @POST
    @Path("/{id}/{verb: delete|disable|reactivate|test}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Delete (disable) an address, reactivate a paused one, or send it a test event")
    public Uni<Response> act(@PathParam("id") String id, @PathParam("verb") String verb) {
        return actions.act(verb, id);
    }

    @POST
    @Path("/{id}/rotate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Rotate the secret; the page shows the new one once and the end of the overlap")
    public Uni<Response> rotate(@PathParam("id") String id) {
        return actions.rotate(id);
    }

    @POST
    @Path("/{id}/recover")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Recover a window: resend the failed and dead deliveries created between two times")
    public Uni<Response> recover(@PathParam("id") String id, @FormParam("since") String since, @FormParam("until") String until) {
        return actions.recover(id, since, until);
    }
}
