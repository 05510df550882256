package ht.platform.kyc.rest;

import ht.platform.kyc.service.ProofService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The public keys (JWKS) of the proofs, live and test apart; no key needed. */
@Path("/.well-known")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Public")
public class JwksResource {

    @Inject
    ProofService proofs;

    @GET
    @Path("jwks.json")
    @Operation(operationId = "retrieveJwks", summary = "Public keys (JWKS) that verify proofs offline")
    public Response jwks() {
        return Response.ok(proofs.jwks()).header("Cache-Control", "public, max-age=300").build();
    }

    @GET
    @Path("jwks-test.json")
    @Operation(operationId = "retrieveTestJwks", summary = "Public keys (JWKS) of test-mode proofs only; never trust them for live decisions")
    public Response testJwks() {
        return Response.ok(proofs.testJwks()).header("Cache-Control", "public, max-age=300").build();
    }
}
