package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.tenancy.DashboardLinks.CreateLink;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The merchant's backend makes a sign-in link for its own dashboard with a key holding the dashboard permission; the
 * session it opens carries that key's permissions and no more.
 */
@ApiKeyRequired
@Path("/api/v1/dashboard_links")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Dashboard")
public class DashboardLinkResource {

    public static final String SCOPE = "dashboard:write";

    @Inject
    Caller caller;

    @Inject
    SignIns signIns;

    /** {@code mode} defaults to the key's; a test key can only open test mode. */
    @POST
    @Operation(operationId = "createDashboardLink", summary = "A single-use sign-in link to this tenant's dashboard, valid for a few minutes (permission dashboard:write)")
    public Uni<Response> create(CreateLink body) {
        ApiPrincipal p = caller.require(SCOPE);
        String mode = body == null || body.mode() == null ? p.mode() : body.mode();
        return signIns.createLink(p.ownerId(), mode, p.live(), "key:" + p.keyId(), p.scopes())
                .map(link -> Response.status(201).entity(link).build());
    }
}
