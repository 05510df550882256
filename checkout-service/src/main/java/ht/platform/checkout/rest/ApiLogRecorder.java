package ht.platform.checkout.rest;

import ht.platform.checkout.service.ApiLogs;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.trace.RequestIds;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Feeds the API logs: the answer's entity and the authenticated key are noted when the answer is built, and the
 * entry is handed over once the answer has been sent (with its real status and latency).
 */
@ApplicationScoped
public class ApiLogRecorder {

    private static final String ENTRY = "checkout.api-log";

    private record Pending(ApiPrincipal principal, Object entity) { }

    @Inject
    ApiLogs logs;

    @Inject
    Caller caller;

    void routes(@Observes Router router) {
        router.route("/api/v1/*").order(-9_000).handler(ctx -> {
            long started = System.nanoTime();
            ctx.addEndHandler(done -> {
                Pending pending = ctx.get(ENTRY);
                if (pending == null) {
                    return;
                }
                logs.record(pending.principal(), RequestIds.of(ctx), ctx.request().method().name(), ctx.request().path(),
                        ctx.response().getStatusCode(), (System.nanoTime() - started) / 1_000_000,
                        ctx.get(ApiRequestBodies.BODY), pending.entity());
            });
            ctx.next();
        });
    }

    @ServerResponseFilter
    public void note(ContainerResponseContext response, RoutingContext ctx) {
        if (!ctx.request().path().startsWith("/api/v1/")) {
            return;
        }
        ApiPrincipal principal;
        try {
            principal = caller.principal();
        } catch (RuntimeException unauthenticated) {
            return;
        }
        ctx.put(ENTRY, new Pending(principal, response.getEntity()));
    }
}
