package ht.platform.support.tenancy;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The operator API of a service whose owners are a name only (checkout's applications, wallet's projects): creating
 * one, its keys and its dashboard links. The service's resource gives the path and its key request. (JAX-RS reads a
 * class's @Consumes for the methods it declares, so each class of the hierarchy says it.)
 */
@RegisterForReflection(ignoreNested = false)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public abstract class OwnerAdminResource<K extends OwnerKeysResource.KeyRequest> extends OwnerKeysResource<K> {

    public record NewOwner(String name) { }

    @POST
    @Operation(summary = "Create an owner (a client application, a merchant project)")
    public Uni<Response> createOwner(NewOwner body) {
        return operator.createOwner(body == null ? null : body.name());
    }
}
