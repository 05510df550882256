package ht.platform.wallet.web;

import ht.platform.support.http.TokenPath;
import ht.platform.wallet.model.Payment;
import ht.platform.wallet.model.Project;
import ht.platform.wallet.service.PaymentService;
import ht.platform.support.web.PageLanguage;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URI;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The hosted wallet page ({@code wallet_url}): opening it moves the payment from created to pending; in test
 * mode it offers the outcomes (POST forms under the same unguessable token), in live mode it waits for the
 * confirmation in the customer's wallet app. Server-rendered (Qute), French by default, English and Creole.
 */
@TokenPath
@Path("/wallet")
@Tag(name = "Hosted wallet page")
public class HostedPageResource {

    private static final Pattern TOKEN = Pattern.compile("wpt_[0-9a-f]{48}");
    private static final Set<String> ACTIONS = Set.of("succeed", "fail");
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** What the template shows of a payment. */
    @TemplateData
    public record PageModel(String token, String reference, String description, long amount, long fee, long total,
                            String currency, String status, String returnUrl) { }

    @Inject
    Template wallet;

    @Inject
    PaymentService payments;

    @GET
    @Path("/{token}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The hosted wallet page of a payment (HTML; ?lang=fr|en|ht)")
    public Uni<Response> open(@PathParam("token") String token, @QueryParam("lang") String lang,
                              @HeaderParam("Accept-Language") String acceptLanguage) {
        String language = PageLanguage.choose(lang, acceptLanguage);
        if (!TOKEN.matcher(token).matches()) {
            return Uni.createFrom().item(missing(language));
        }
        return Panache.withTransaction(() -> payments.lockByToken(token).chain(p -> p == null
                        ? Uni.createFrom().nullItem() : payments.opened(p)))
                .chain(p -> p == null ? Uni.createFrom().item(missing(language)) : render(p, language, false, 200));
    }

    @POST
    @Path("/{token}/{action}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "Test mode only: the customer's simulated outcome (succeed | fail)")
    public Uni<Response> act(@PathParam("token") String token, @PathParam("action") String action,
                             @FormParam("lang") String lang) {
        String language = PageLanguage.choose(lang, null);
        if (!TOKEN.matcher(token).matches() || !ACTIONS.contains(action)) {
            return Uni.createFrom().item(missing(language));
        }
        return Panache.withTransaction(() -> payments.lockByToken(token).chain(p -> {
            if (p == null) {
                return Uni.createFrom().item(missing(language));
            }
            if (!"test".equals(p.mode)) {
                return render(p, language, true, 403);
            }
            return payments.opened(p).chain(opened -> opened.isFinal() ? Uni.createFrom().item(opened)
                    : payments.apply(opened, action)).replaceWith(Response.seeOther(
                    URI.create("/wallet/" + token + "?lang=" + language)).build());
        }));
    }

    private Uni<Response> render(Payment p, String language, boolean forbidden, int status) {
        return Project.<Project>findById(p.projectId).chain(project -> wallet.instance()
                .setLocale(language)
                .data("lang", language)
                .data("missing", false)
                .data("forbidden", forbidden)
                .data("test", "test".equals(p.mode))
                .data("open", !p.isFinal())
                .data("refresh", !p.isFinal() && !"test".equals(p.mode))
                .data("merchant", project == null ? "" : project.name)
                .data("statusKey", "status_" + p.status)
                .data("expires", WHEN.format(p.expiresAt))
                .data("p", new PageModel(p.pageToken, p.reference, p.description, p.amount, p.fee, p.total, p.currency,
                        p.status, p.returnUrl))
                .createUni()
                .map(html -> page(status, html, language)));
    }

    private Response missing(String language) {
        String html = wallet.instance().setLocale(language).data("lang", language).data("missing", true).data("test", false)
                .data("refresh", false).render();
        return page(404, html, language);
    }

    private static Response page(int status, String html, String language) {
        return Response.status(status).type("text/html;charset=UTF-8").entity(html)
                .header("Cache-Control", "no-store")
                .header("Referrer-Policy", "no-referrer")
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
                .header("Content-Language", language)
                .build();
    }
}
