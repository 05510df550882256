package ht.platform.support.auth;

import ht.platform.support.errors.ApiException;
import ht.platform.support.errors.ErrorResponses;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The refusals of keys nobody holds (401 for a key found unknown, 429 for a client past its failures, 503 with no room
 * for one more lookup), answered from the router before the REST layer with the same status, headers and body: a flood
 * of made-up keys then costs the event loops a small part of what full requests cost, so other tenants' requests and
 * the readiness probe wait less. Only refuses, never admits: a request it lets by meets {@link ApiKeyAuthentication}'s
 * filter after routing as before. Covers /api/v1 except its public operations; a path there no resource serves is
 * refused like the others instead of answering 404 to a key nobody holds.
 */
@ApplicationScoped
public class KeyRefusals {

    @Inject
    ApiKeyAuthentication authentication;

    @Inject
    ErrorResponses errors;

    @ConfigProperty(name = "platform.openapi.public-operations")
    Optional<List<String>> publicOperations;

    private Set<String> open;

    void routes(@Observes Router router) {
        open = Set.copyOf(publicOperations.orElse(List.of()));
        // after the edge's request id, access log and path checks (order -10,000), before the feed's and the API log's
        router.route("/api/v1/*").order(-9_500).handler(this::refuseEarly);
    }

    private void refuseEarly(RoutingContext ctx) {
        ApiException refused = open.contains(ctx.normalizedPath()) ? null : authentication.refusalBeforeRouting(ctx);
        if (refused == null) {
            ctx.next();
            return;
        }
        errors.write(ctx, refused);
    }
}
