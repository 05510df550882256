package ht.platform.support.auth;

import io.smallrye.mutiny.Uni;

/** Each service finds its own keys; answers null when no active key has this hash. */
public interface ApiKeyLookup {

    Uni<ApiPrincipal> findByHash(String keyHash);
}
