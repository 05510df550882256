package ht.platform.wallet.web;

import ht.platform.support.http.PageHeaders;
import ht.platform.support.http.PublicUrls;
import ht.platform.support.http.ClientAddress;
import ht.platform.support.http.TokenPath;
import ht.platform.support.tenancy.Tenancy;
import ht.platform.support.web.PageLanguage;
import ht.platform.wallet.model.Payment;
import ht.platform.wallet.provider.MonCashWallet;
import ht.platform.wallet.service.MonCashPayments;
import ht.platform.wallet.service.MonCashReturns;
import ht.platform.wallet.service.PaymentService;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
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
    private static final Pattern TRANSACTION = Pattern.compile("[0-9A-Za-z_-]{1,64}");
    private static final Set<String> ACTIONS = Set.of("succeed", "fail");
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** What the template shows of a payment. */
    @TemplateData
    public record PageModel(String token, String reference, String description, long amount, long fee, long total,
                            String currency, String status, String returnUrl) { }

    @Inject
    PublicUrls urls;

    @Inject
    Template wallet;

    @Inject
    PaymentService payments;

    @Inject
    Tenancy tenancy;

    @Inject
    MonCashPayments moncash;

    @Inject
    MonCashWallet rail;

    @Inject
    MonCashReturns returns;

    /** Names the page the browser left for MonCash, in case MonCash's return cannot be traced yet. */
    static final String RAIL_COOKIE = "gw_moncash";


    @GET
    @Path("/{token}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The hosted wallet page of a payment (HTML; ?lang=fr|en|ht)")
    public Uni<Response> open(@PathParam("token") String token, @QueryParam("lang") String lang,
                              @HeaderParam("Accept-Language") String acceptLanguage, @QueryParam("error") String error) {
        String language = PageLanguage.choose(lang, acceptLanguage);
        if (!TOKEN.matcher(token).matches()) {
            return Uni.createFrom().item(missing(language));
        }
        return payments.openPage(token)
                .chain(p -> p == null ? Uni.createFrom().item(missing(language)) : render(p, language, false, 200, error != null));
    }

    @POST
    @Path("/{token}/moncash")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Live mode: the customer goes to MonCash to pay (303 to MonCash's payment page)",
            description = "The payment goes pending when the customer is sent; only MonCash's record of the payment makes it succeeded.")
    public Uni<Response> payWithMonCash(@PathParam("token") String token, @FormParam("lang") String lang) {
        String language = PageLanguage.choose(lang, null);
        if (!TOKEN.matcher(token).matches()) {
            return Uni.createFrom().item(missing(language));
        }
        return moncash.send(token).map(sent -> {
            if (sent == null) {
                return missing(language);
            }
            if (sent.redirectUrl() == null) { // MonCash did not answer (or the payment is final, or not MonCash's)
                return back(token, language, !sent.payment().isFinal() && payments.viaMonCash(sent.payment()));
            }
            return Response.seeOther(URI.create(sent.redirectUrl()))
                    .cookie(new NewCookie.Builder(RAIL_COOKIE).value(returns.cookie(token)).path("/wallet/moncash").httpOnly(true)
                            .secure(urls.secure()).sameSite(NewCookie.SameSite.LAX).maxAge(3600).build())
                    .build();
        });
    }

    @GET
    @Path("/moncash/return")
    @Operation(summary = "Where MonCash sends the customer back (the return URL of the gateway's MonCash business account)",
            description = "The browser that left for MonCash from a payment's page (its cookie) goes back to that page, the"
                    + " payment settled from MonCash's record of the transaction (the return itself proves nothing); any other"
                    + " return gets a neutral 'we are checking your payment' page and the background reconciler settles."
                    + " 429 with Retry-After past a small budget of returns per client address.")
    public Uni<Response> returnFromMonCash(@QueryParam("transactionId") String transactionId, @QueryParam("lang") String lang,
                                           @CookieParam(RAIL_COOKIE) String cookieToken, RoutingContext ctx) {
        String language = PageLanguage.choose(lang, null);
        String opened = returns.opened(cookieToken);
        String ours = opened != null && TOKEN.matcher(opened).matches() ? opened : null;
        String transaction = transactionId != null && TRANSACTION.matcher(transactionId).matches() ? transactionId : null;
        return returns.returned(transaction, ours, ClientAddress.of(ctx)).map(outcome -> outcome.page() != null
                ? back(outcome.page(), language, false)
                : checking(language, outcome.limited() ? 429 : 200, outcome.retryAfter()));
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
        return payments.simulateOnPage(token, action).chain(p -> {
            if (p == null) {
                return Uni.createFrom().item(missing(language));
            }
            if (!"test".equals(p.mode)) {
                return render(p, language, true, 403);
            }
            return Uni.createFrom().item(Response.seeOther(URI.create("/wallet/" + token + "?lang=" + language)).build());
        });
    }

    private static Response back(String token, String language, boolean railError) {
        return Response.seeOther(URI.create("/wallet/" + token + "?lang=" + language + (railError ? "&error=moncash" : ""))).build();
    }

    private Uni<Response> render(Payment p, String language, boolean forbidden, int status) {
        return render(p, language, forbidden, status, false);
    }

    private Uni<Response> render(Payment p, String language, boolean forbidden, int status, boolean railError) {
        boolean viaMonCash = payments.viaMonCash(p);
        return tenancy.standing(p.projectId).chain(project -> wallet.instance()
                .setLocale(language)
                .data("lang", language)
                .data("missing", false)
                .data("checking", false)
                .data("forbidden", forbidden)
                .data("test", "test".equals(p.mode))
                .data("open", !p.isFinal())
                .data("refresh", !p.isFinal() && !"test".equals(p.mode) && !(viaMonCash && "created".equals(p.status)))
                .data("moncash", viaMonCash && !p.isFinal())
                .data("railError", railError)
                .data("merchant", project == null ? "" : project.name())
                .data("statusKey", "status_" + p.status)
                .data("expires", WHEN.format(p.expiresAt))
                .data("p", new PageModel(p.pageToken, p.reference, p.description, p.amount, p.fee, p.total, p.currency,
                        p.status, p.returnUrl))
                .createUni()
                .map(html -> page(status, html, language, viaMonCash ? rail.gatewayBase() : null)));
    }

    private Response missing(String language) {
        String html = wallet.instance().setLocale(language).data("lang", language).data("missing", true).data("test", false)
                .data("refresh", false).data("checking", false).render();
        return page(404, html, language, null);
    }

    /** The neutral page of a return: names no payment, merchant or amount. */
    private Response checking(String language, int status, long retryAfter) {
        String html = wallet.instance().setLocale(language).data("lang", language).data("missing", false).data("test", false)
                .data("refresh", false).data("checking", true).render();
        Response page = page(status, html, language, null);
        return retryAfter > 0 ? Response.fromResponse(page).header("Retry-After", Long.toString(retryAfter)).build() : page;
    }

    /** {@code formTarget}: another origin the page's form may lead to (MonCash's payment page), or null. */
    private static Response page(int status, String html, String language, URI formTarget) {
        String formOrigin = formTarget == null ? null : formTarget.getScheme() + "://" + formTarget.getRawAuthority();
        return Response.status(status).type("text/html;charset=UTF-8").entity(html)
                .header("Cache-Control", "no-store")
                .header("Content-Security-Policy", PageHeaders.csp(PageHeaders.INLINE_STYLES, formOrigin))
                .header("Content-Language", language)
                .build();
    }
}
