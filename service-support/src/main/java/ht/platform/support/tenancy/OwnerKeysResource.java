package ht.platform.support.tenancy;

import ht.platform.support.admin.OperatorApi;
import io.quarkus.runtime.annotations.RegisterForReflection;
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

/**
 * The operator's routes of one owner (Bearer ADMIN_TOKEN), the same in every service: issuing a secret key and a
 * sign-in link to the owner's dashboard. A service's resource gives the path ({@code @Path("/admin/v1/applications")})
 * and its word for what a key may do ({@link Scopes}, {@link Permissions});
 * {@link OwnerAdminResource} adds creating an owner. Revoking a key is {@link KeyAdminResource}.
 */
@RegisterForReflection(ignoreNested = false)
@OperatorApi
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public abstract class OwnerKeysResource<K extends OwnerKeysResource.KeyRequest> {

    /** A key request: mode test or live, and what the key may do (omitted: all but dashboard:write). */
    public interface KeyRequest {
        String mode();

        List<String> grants();
    }

    // what a key may do, in the specs' words: scopes (kyc, checkout), permissions (wallet)
    public record Scopes(String mode, List<String> scopes) implements KeyRequest {
        public List<String> grants() { return scopes; }
    }

    public record Permissions(String mode, List<String> permissions) implements KeyRequest {
        public List<String> grants() { return permissions; }
    }

    @Inject
    protected TenancyOperator operator;

    @Inject
    DashboardLinks dashboardLinks;

    @POST
    @Path("/{id}/keys")
    @Operation(summary = "Issue a secret key (mode test or live; omitted grants = all but dashboard:write, which is asked for by"
            + " name); the key is shown only in this response")
    public Uni<Response> createKey(@PathParam("id") String ownerId, K body) {
        return operator.issueKey(ownerId, body == null ? null : body.mode(), body == null ? null : body.grants());
    }

    @POST
    @Path("/{id}/dashboard_links")
    @Operation(summary = "A single-use sign-in link to the owner's dashboard, valid for a few minutes")
    public Uni<Response> dashboardLink(@PathParam("id") String ownerId, DashboardLinks.CreateLink body) {
        String mode = body == null || body.mode() == null ? "test" : body.mode();
        return dashboardLinks.createOperatorLink(ownerId, mode).map(link -> Response.status(201).entity(link).build());
    }
}
