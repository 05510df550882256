package ht.platform.checkout.admin;

import ht.platform.support.admin.OperatorApi;
import io.quarkus.runtime.annotations.RegisterForReflection;
import ht.platform.support.tenancy.Tenancy;
import ht.platform.support.auth.ApiKeyAuthentication;
import ht.platform.support.dashboard.DashboardLinkResource;
import ht.platform.support.dashboard.SignIns;
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
    SignIns signIns;

    @Inject
    Tenancy applications;

    @Inject
    ApiKeyAuthentication authentication;

    @POST
    @Path("/applications")
    @Operation(summary = "Create a client application")
    public Uni<Response> createApplication(CreateApplication body) {
        return applications.createOwner(body == null ? null : body.name())
                .map(a -> Response.status(201).entity(applications.view(a)).build());
    }

    @POST
    @Path("/applications/{id}/dashboard_links")
    @Operation(summary = "A single-use sign-in link to the application's dashboard, valid for a few minutes")
    public Uni<Response> dashboardLink(@PathParam("id") String applicationId, DashboardLinkResource.CreateLink body) {
        return DashboardLinkResource.forOperator(signIns, applicationId, body);
    }

    @POST
    @Path("/applications/{id}/keys")
    @Operation(summary = "Issue a secret key (mode test|live, scopes; omitted scopes = all); the key is shown only in this response")
    public Uni<Response> createKey(@PathParam("id") String applicationId, CreateKey body) {
        return applications.issueKey(applicationId, body == null ? null : body.mode(), body == null ? null : body.scopes())
                .map(issued -> Response.status(201).entity(applications.view(issued)).build());
    }

    @DELETE
    @Path("/keys/{id}")
    @Operation(summary = "Revoke a key")
    public Uni<Response> revokeKey(@PathParam("id") String keyId) {
        return applications.revokeKey(keyId).invoke(authentication::forgetAll).replaceWith(Response.noContent().build());
    }
}
