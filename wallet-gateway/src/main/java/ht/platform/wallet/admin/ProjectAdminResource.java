package ht.platform.wallet.admin;

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

/** Operator API: projects and their secret keys (Bearer ADMIN_TOKEN). */
@RegisterForReflection(ignoreNested = false)
@OperatorApi
@Path("/admin/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public class ProjectAdminResource {

    public record CreateProject(String name) { }
    public record CreateKey(String mode, List<String> permissions) { }

    @Inject
    TenancyOperator operator;

    @Inject
    SignIns signIns;

    @POST
    @Path("/projects")
    @Operation(summary = "Create a merchant project")
    public Uni<Response> createProject(CreateProject body) {
        return operator.createOwner(body == null ? null : body.name());
    }

    @POST
    @Path("/projects/{id}/keys")
    @Operation(summary = "Issue a secret key for a project; the key is shown only in this response")
    public Uni<Response> createKey(@PathParam("id") String projectId, CreateKey body) {
        return operator.issueKey(projectId, body == null ? null : body.mode(), body == null ? null : body.permissions());
    }

    @POST
    @Path("/projects/{id}/dashboard_links")
    @Operation(summary = "A single-use sign-in link to the project's dashboard, valid for a few minutes")
    public Uni<Response> dashboardLink(@PathParam("id") String projectId, DashboardLinkResource.CreateLink body) {
        return DashboardLinkResource.forOperator(signIns, projectId, body);
    }

    @DELETE
    @Path("/keys/{id}")
    @Operation(summary = "Revoke a key")
    public Uni<Response> revokeKey(@PathParam("id") String keyId) {
        return operator.revokeKey(keyId);
    }
}
