package ht.platform.support.admin;

import ht.platform.support.auth.ApiKeys;
import ht.platform.support.errors.ApiException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The operator API's check, bound to the {@link OperatorApi} resources (after routing, so no spelling of a path reaches
 * one around it): Bearer ADMIN_TOKEN, and invisible (404) when no token is configured.
 */
@ApplicationScoped
public class AdminAuthentication {

    @Inject
    AdminSettings settings;

    @OperatorApi
    @ServerRequestFilter(priority = 900, nonBlocking = true)
    public void authenticate(HttpServerRequest request) {
        String token = settings.token().filter(t -> !t.isBlank()).orElse(null);
        if (token == null) {
            throw new ApiException(404, "NOT_FOUND", "No such resource: " + request.path());
        }
        String header = request.getHeader("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
        if (!ApiKeys.constantTimeEquals(ApiKeys.hash(token), given == null ? null : ApiKeys.hash(given))) {
            throw new ApiException(401, "UNAUTHENTICATED", "Missing or invalid operator token");
        }
    }
}
