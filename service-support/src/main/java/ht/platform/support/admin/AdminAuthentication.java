package ht.platform.support.admin;

import ht.platform.support.auth.ApiKeys;
import ht.platform.support.errors.ApiException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** The operator API under /admin/v1: Bearer ADMIN_TOKEN, invisible (404) when no token is configured. */
@ApplicationScoped
public class AdminAuthentication {

    public static final String PREFIX = "/admin/v1";

    @Inject
    AdminSettings settings;

    @ServerRequestFilter(preMatching = true, priority = 900)
    public void authenticate(HttpServerRequest request) {
        String path = request.path();
        if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
            return;
        }
        String token = settings.token().filter(t -> !t.isBlank()).orElse(null);
        if (token == null) {
            throw new ApiException(404, "NOT_FOUND", "No such resource: " + path);
        }
        String header = request.getHeader("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
        if (!ApiKeys.constantTimeEquals(ApiKeys.hash(token), given == null ? null : ApiKeys.hash(given))) {
            throw new ApiException(401, "UNAUTHENTICATED", "Missing or invalid operator token");
        }
    }
}
