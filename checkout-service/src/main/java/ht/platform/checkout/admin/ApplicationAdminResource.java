package ht.platform.checkout.admin;

import ht.platform.support.admin.OperatorApi;
import ht.platform.support.dashboard.DashboardLinkResource;
import ht.platform.support.dashboard.SignIns;
import ht.platform.support.tenancy.TenancyOperator;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;

/** Operator API: client applications and their secret keys (Bearer ADMIN_TOKEN). */
@RegisterForReflection(ignoreNested = false)
@OperatorApi
@Path("/admin/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public class ApplicationAdminResource {

    public record CreateApplication(String name) { }
    public record CreateKey(String mode, List<String> scopes) { }

    @Inject
    TenancyOperator operator;

    @Inject
    SignIns signIns;

    @POST
    @Path("/applications")
    @Operation(summary = "Create a client application")
    public Uni<Response> createApplication(CreateApplication body) {
        return operator.createOwner(body == null ? null : body.name());
    }

    @POST
    @Path("/applications/{id}/dashboard_links")
    @Operation(summary = "A single-use sign-in link to the application's dashboard, valid for a few minutes")
    public Uni<Response> dashboardLink(@PathParam("id") String applicationId, DashboardLinkResource.CreateLink body) {
        return DashboardLinkResource.forOperator(signIns, applicationId, body);
    }

    @POST
    @Path("/applications/{id}/keys")
    @Operation(summary = "Issue a secret key (mode test|live, scopes; omitted scopes = all but dashboard:write, which is asked for by name); the key is shown only in this response")
    public Uni<Response> createKey(@PathParam("id") String applicationId, CreateKey body) {
        return operator.issueKey(applicationId, body == null ? null : body.mode(), body == null ? null : body.scopes());
    }

    @DELETE
    @Path("/keys/{id}")
    @Operation(summary = "Revoke a key")
    public Uni<Response> revokeKey(@PathParam("id") String keyId) {
        return operator.revokeKey(keyId);
    }
}
