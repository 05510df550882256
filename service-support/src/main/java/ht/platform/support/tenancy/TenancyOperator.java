package ht.platform.support.tenancy;

import ht.platform.support.auth.ApiKeyAuthentication;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * What the operator API does with tenants and keys, the same in every service: each service's admin resource is a
 * JAX-RS shell that gives this its own paths and words. A revoked key stops working at once: the cached callers
 * are forgotten.
 */
@ApplicationScoped
public class TenancyOperator {

    @Inject
    Tenancy tenancy;

    @Inject
    ApiKeyAuthentication authentication;

    /** 201 {@code {id, name, created_at}}. */
    public Uni<Response> createOwner(String name) {
        return tenancy.createOwner(name).map(owner -> Response.status(201).entity(tenancy.view(owner)).build());
    }

    /** 201 with the key, shown only in this response; {@code grants} null = all but dashboard:write. */
    public Uni<Response> issueKey(String ownerId, String mode, List<String> grants) {
        return tenancy.issueKey(ownerId, mode, grants).invoke(authentication::forgetUnknown)
                .map(issued -> Response.status(201).entity(tenancy.view(issued)).build());
    }

    /** 204; 404 for an unknown key. */
    public Uni<Response> revokeKey(String keyId) {
        return tenancy.revokeKey(keyId).invoke(authentication::forgetAll).replaceWith(Response.noContent().build());
    }

    /** The caches of callers are stale once an owner's standing changed. */
    public void forgetCallers() {
        authentication.forgetAll();
    }
}
