package ht.platform.support.dashboard;

import ht.platform.support.http.PublicUrls;
import ht.platform.support.http.ClientAddress;
import ht.platform.support.trace.RequestIds;
import io.quarkus.qute.Engine;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URI;


/** Signing in through a link, signing out, and the test/live switch: the same in the three services. */
@Path("/dashboard/session")
@DashboardPage
@Tag(name = "Dashboard")
public class SessionResource {

    @Inject
    PublicUrls urls;

    @Inject
    SignIns signIns;

    @Inject
    Merchant merchant;

    @Inject
    DashboardSettings settings;

    @Inject
    DashboardAudit audit;

    @Inject
    Languages languages;

    @Inject
    Engine engine;

    /** Opening the link shows a button; only the POST consumes it (so link previewers cannot spend it). */
    @GET
    @Path("/sign_in")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The sign-in page of a dashboard link (HTML)")
    public Uni<Response> signInPage(@QueryParam("token") String token, @QueryParam("out") String out, RoutingContext ctx) {
        return page(ctx, 200, token != null && token.startsWith(SignIns.LINK_PREFIX) ? token : null,
                out != null ? "signed_out" : token == null ? "needed" : null);
    }

    @POST
    @Path("/sign_in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "Consume a dashboard link and open a session (HTML)")
    public Uni<Response> signIn(@FormParam("token") String token, RoutingContext ctx) {
        String requestId = RequestIds.of(ctx);
        String client = ClientAddress.of(ctx);
        String crossSite = SameSite.refusal(ctx.request(), urls.base());
        if (crossSite != null) { // refused before the link is spent: the merchant's own click still works
            audit.signIn("refused", crossSite, null, client, requestId);
            return page(ctx, 403, null, "refused");
        }
        return signIns.redeem(token).chain(opened -> {
            if (opened == null) {
                audit.signIn("refused", "link", null, client, requestId);
                return page(ctx, 403, null, "refused");
            }
            audit.signIn("ok", null, opened.session(), client, requestId);
            long maxAge = settings.absoluteTimeout().toSeconds();
            return Uni.createFrom().item(Response.seeOther(URI.create("/dashboard"))
                    .header("Set-Cookie", cookie(opened.id(), maxAge)).build());
        });
    }

    @POST
    @Path("/sign_out")
    @SignedIn
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "End the dashboard session")
    public Uni<Response> signOut() {
        var session = merchant.session();
        return signIns.signOut(session).invoke(() -> audit.action("sign_out", null, "ok", session, merchant.requestId()))
                .replaceWith(Response.seeOther(URI.create(SignIns.SIGN_IN_PATH + "?out=1"))
                        .header("Set-Cookie", cookie("", 0)).build());
    }

    @POST
    @Path("/mode")
    @SignedIn
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Switch the session between test and live mode")
    public Uni<Response> switchMode(@FormParam("mode") String mode) {
        var session = merchant.session();
        return Uni.createFrom().deferred(() -> signIns.switchMode(session, mode))
                .invoke(() -> audit.action("switch_mode", mode, "ok", session, merchant.requestId()))
                .replaceWith(Response.seeOther(URI.create("/dashboard")).build())
                .onFailure(ht.platform.support.errors.ApiException.class).recoverWithItem(e -> {
                    audit.action("switch_mode", mode, "refused", session, merchant.requestId());
                    return Response.status(((ht.platform.support.errors.ApiException) e).status())
                            .type("text/plain;charset=UTF-8").entity(e.getMessage()).build();
                });
    }

    private Uni<Response> page(RoutingContext ctx, int status, String token, String state) {
        return engine.getTemplate("dashboard/sign_in").instance()
                .data("title", settings.title()).data("token", token).data("state", state)
                .data("lang", languages.current(ctx))
                .setLocale(languages.locale(ctx)).createUni()
                .map(html -> Response.status(status).type("text/html;charset=UTF-8").entity(html).build());
    }

    private String cookie(String value, long maxAge) {
        return DashboardFilters.SESSION_COOKIE + "=" + value + "; Path=/dashboard; Max-Age=" + maxAge
                + "; HttpOnly; SameSite=Strict" + (settings.secureCookie() ? "; Secure" : "");
    }

}
