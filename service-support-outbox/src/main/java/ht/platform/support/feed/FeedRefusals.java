package ht.platform.support.feed;

import ht.platform.support.auth.ApiKeyAuthentication;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.errors.ErrorResponses;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The feed's 429 for a key already past its limits, answered from the router before the request reaches the REST
 * layer: under a flood of reads from one key, each refusal costs the event loops a small part of what a full request
 * costs, so everyone else's requests on them wait less. Only refuses, never admits: any read it lets by (a key not
 * resolved yet, another spelling of the path, room left) meets {@link FeedApi}'s authentication and admission as before.
 */
@ApplicationScoped
public class FeedRefusals {

    public static final String PATH = "/api/v1/events";

    @Inject
    ApiKeyAuthentication authentication;

    @Inject
    FeedAdmission admission;

    @Inject
    ErrorResponses errors;

    void routes(@Observes Router router) {
        // after the edge's request id, access log and path checks (order -10,000), before every REST route
        router.get(PATH).order(-9_000).handler(this::refuseEarly);
    }

    private void refuseEarly(RoutingContext ctx) {
        ApiPrincipal p = authentication.resolved(ctx.request().getHeader("Authorization"));
        ApiException refused = p == null ? null : admission.refusalNow(p.keyId(), p.ownerId());
        if (refused == null) {
            ctx.next();
            return;
        }
        ApiKeyAuthentication.nameInLogs(p);
        errors.write(ctx, refused);
    }
}
