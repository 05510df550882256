package ht.platform.support.tenancy;

import ht.platform.support.admin.OperatorApi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operator API of every service: revoking a secret key, whichever owner holds it (Bearer ADMIN_TOKEN). */
@OperatorApi
@Path("/admin/v1/keys")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Operator")
public class KeyAdminResource {

    @Inject
    TenancyOperator operator;

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Revoke a key")
    public Uni<Response> revokeKey(@PathParam("id") String keyId) {
        return operator.revokeKey(keyId);
    }
}
