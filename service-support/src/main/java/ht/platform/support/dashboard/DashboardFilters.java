package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiKeys;
import ht.platform.support.trace.RequestIds;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.WithFormRead;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

import java.net.URI;

/** The dashboard's edge, bound to its resources by annotation: page headers, the session and the CSRF check. */
@ApplicationScoped
public class DashboardFilters {

    public static final String SESSION_COOKIE = "dash_session";
    public static final String LANGUAGE_COOKIE = "dash_lang";
    public static final String CSRF_FIELD = "csrf";
    /** The dashboards' styles come from their stylesheet only. */
    public static final String CSP = ht.platform.support.http.PageHeaders.csp("'self'", null);

    @Inject
    SignIns signIns;

    @Inject
    Merchant merchant;

    @Inject
    DashboardAudit audit;

    @Inject
    Languages languages;

    @DashboardPage
    @ServerResponseFilter
    public void pageHeaders(ContainerResponseContext response, RoutingContext ctx) {
        MultivaluedMap<String, Object> h = response.getHeaders();
        h.putSingle("Content-Security-Policy", CSP); // the rest of the page headers: PageHeaders, at the edge
        h.putSingle("Cross-Origin-Opener-Policy", "same-origin");
        h.putSingle("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        if (!h.containsKey("Cache-Control")) {
            h.putSingle("Cache-Control", "no-store");
        }
        String chosen = languages.requested(ctx);
        if (chosen != null) {
            h.add("Set-Cookie", languages.cookie(chosen));
        }
    }

    /**
     * A signed-in session is required (otherwise the sign-in page explains how to get a link); every POST must carry
     * the session's CSRF token in its form.
     */
    @SignedIn
    @WithFormRead
    @ServerRequestFilter
    public Uni<Response> session(ResteasyReactiveContainerRequestContext request, RoutingContext ctx) {
        Cookie cookie = request.getCookies().get(SESSION_COOKIE);
        return signIns.authenticate(cookie == null ? null : cookie.getValue()).map(session -> {
            if (session == null) {
                audit.refused("session", null, RequestIds.of(ctx));
                return Response.seeOther(URI.create(SignIns.SIGN_IN_PATH)).build();
            }
            if ("POST".equals(request.getMethod())) {
                Object given = ((ResteasyReactiveRequestContext) request.getServerRequestContext())
                        .getFormParameter(CSRF_FIELD, true, false);
                if (!(given instanceof String token) || !ApiKeys.constantTimeEquals(token, session.csrfToken())) {
                    audit.refused("csrf", session, RequestIds.of(ctx));
                    return Response.status(403).type("text/plain;charset=UTF-8")
                            .entity("403 Forbidden: this form has expired; reload the page and try again").build();
                }
            }
            merchant.set(session, RequestIds.of(ctx));
            return null;
        });
    }
}
