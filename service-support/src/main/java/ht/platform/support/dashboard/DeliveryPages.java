package ht.platform.support.dashboard;

import ht.platform.support.dashboard.WebhookAddresses.DeliveryFilter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The routes of the delivery pages under {@code /dashboard/deliveries}: a service's subclass carries that path,
 * {@link DashboardPage} and {@link SignedIn}; every page and action is {@link AddressActions}'.
 */
@Produces(MediaType.TEXT_HTML)
public abstract class DeliveryPages {

    @Inject
    AddressActions actions;

    @GET
    @Operation(summary = "Deliveries, newest first, filtered by address, status and event type (HTML)")
    public Uni<Response> deliveries(@QueryParam("webhook") String address, @QueryParam("status") String status,
                                    @QueryParam("type") String type, @QueryParam("starting_after") String after) {
        return actions.deliveries(new DeliveryFilter(ServiceDashboard.blank(address), ServiceDashboard.blank(status),
                ServiceDashboard.blank(type)), ServiceDashboard.blank(after));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One delivery with its attempts (HTML)")
    public Uni<Response> delivery(@PathParam("id") String id) {
        return actions.delivery(id);
    }

    @POST
    @Path("/{id}/resend")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Resend a delivery")
    public Uni<Response> resend(@PathParam("id") String id) {
        return actions.resend(id);
    }
}
