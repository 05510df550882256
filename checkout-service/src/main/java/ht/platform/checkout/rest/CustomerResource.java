package ht.platform.checkout.rest;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/customers")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Customers")
public class CustomerResource {

    @Inject
    Caller caller;

    @GET
    @Path("/{id}")
    @Operation(operationId = "retrieveCustomer", summary = "A customer (customers are not stored yet: always 404)",
            description = "Scope: customers:read. Errors: 401; 403 INSUFFICIENT_SCOPE; 404 NOT_FOUND.")
    public Object get(@PathParam("id") String id) {
        caller.require("customers:read");
        throw ApiException.notFound("Customer " + id);
    }
}
