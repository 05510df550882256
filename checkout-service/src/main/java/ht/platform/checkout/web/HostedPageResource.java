package ht.platform.checkout.web;

import ht.platform.support.http.PublicUrls;
import ht.platform.checkout.model.Money;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.SimulatorProvider;
import ht.platform.checkout.service.HostedPayment;
import ht.platform.checkout.service.LinkService;
import ht.platform.checkout.service.MonCashCheckout;
import ht.platform.support.http.PageHeaders;
import ht.platform.checkout.service.MonCashReturns;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.ClientAddress;
import ht.platform.support.http.TokenPath;
import ht.platform.support.ids.Ids;
import ht.platform.support.web.PageLanguage;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * The hosted payment page (French by default, English with ?lang=en, Haitian Creole with ?lang=ht). It shows the payment and lets the customer
 * pay; the outcome comes from the payment rail, never from the page. The return link is a display convenience.
 */
@TokenPath
@Path("/pay")
@Tag(name = "Hosted page")
public class HostedPageResource {

    public record MethodChoice(String id, String labelKey, String name, boolean available) { }
    public record OutcomeChoice(String id, String labelKey) { }

    /** The per-browser nonce of the link pages' form, and the checkout session this browser opened from a link. */
    static final String LINK_NONCE = "link_nonce";
    static final String LINK_SESSION = "link_session";
    private static final java.util.regex.Pattern TRANSACTION = java.util.regex.Pattern.compile("[0-9A-Za-z_-]{1,64}");
    private static final int LINK_COOKIE_SECONDS = 24 * 3600;

    private static final Set<String> WAITING = Set.of("processing", "provider_pending", "provider_unknown");
    private static final Set<String> DONE = Set.of("succeeded", "requires_capture", "partially_refunded", "refunded",
            "failed", "cancelled", "expired");

    @Inject
    PublicUrls urls;

    @Inject
    @Location("pay.html")
    Template page;

    @Inject
    HostedPayment payments;

    @Inject
    Clock clock;

    @Inject
    PaymentRails rails;

    @Inject
    MonCashCheckout moncash;

    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "moncash.gateway-base")
    java.util.Optional<String> monCashGateway;

    /** Names the checkout session the browser left for MonCash, in case MonCash's return cannot be traced. */
    static final String RAIL_COOKIE = "co_rail_session";

    @Inject
    @Location("link.html")
    Template linkPage;

    @Location("checking.html")
    Template checking;

    @Inject
    MonCashReturns returns;

    @Inject
    LinkService links;


    @GET
    @Path("/{session}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "Hosted payment page of a payment intent (HTML)")
    public Uni<Response> show(@PathParam("session") String session, @QueryParam("lang") String lang,
                              @QueryParam("error") String error) {
        return intent(session).chain(pi -> render(pi, PageLanguage.choose(lang, null), error != null));
    }

    @POST
    @Path("/{session}/pay")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "The customer pays with the chosen method (test mode: and the chosen simulated outcome)")
    public Uni<Response> pay(@PathParam("session") String session, @FormParam("payment_method") String method,
                             @FormParam("outcome") String outcome, @FormParam("lang") String lang) {
        String locale = PageLanguage.choose(lang, null);
        return intent(session).chain(pi -> payments.pay(pi.id, method, "test".equals(pi.mode) ? outcome : null)
                .chain(paid -> toRail(paid, session, locale))
                .onFailure(ApiException.class).recoverWithItem(e -> back(session, locale, true)));
    }

    /** A live customer whose payment waits on the rail's page is sent there; everyone else back to this page. */
    private Uni<Response> toRail(PaymentIntent pi, String session, String locale) {
        if ("test".equals(pi.mode) || !pi.status.equals("requires_action")) {
            return Uni.createFrom().item(back(session, locale, false));
        }
        return moncash.customerRedirect(pi.id).map(url -> url == null ? back(session, locale, false)
                : Response.seeOther(URI.create(url))
                        .cookie(new NewCookie.Builder(RAIL_COOKIE).value(returns.cookie(session)).path("/pay/moncash").httpOnly(true)
                                .sameSite(NewCookie.SameSite.LAX).maxAge(3600).build())
                        .build());
    }

    @GET
    @Path("/moncash/return")
    @Operation(summary = "Where MonCash sends the customer back (the return URL of the MonCash business account)",
            description = "The browser that left for MonCash from a checkout page (its cookie) goes back to that page, the"
                    + " payment confirmed with MonCash (the return itself proves nothing); any other return gets a neutral"
                    + " 'we are checking your payment' page and the background reconciler settles. 429 with Retry-After past"
                    + " a small budget of returns per client address.")
    public Uni<Response> returnFromMonCash(@QueryParam("transactionId") String transactionId,
                                          @CookieParam(RAIL_COOKIE) String cookie, @QueryParam("lang") String lang,
                                          RoutingContext ctx) {
        String locale = PageLanguage.choose(lang, null);
        String session = returns.opened(cookie);
        String known = session != null && Ids.isUlid(session, "pay_cs_") ? session : null;
        String transaction = transactionId != null && TRANSACTION.matcher(transactionId).matches() ? transactionId : null;
        return returns.returned(transaction, known, ClientAddress.of(ctx)).map(outcome -> outcome.page() != null
                ? back(outcome.page(), locale, false) : checkingPage(locale, outcome.retryAfter()));
    }

    /** The neutral page of a return: names no payment, merchant or amount. */
    private Response checkingPage(String locale, long retryAfter) {
        Response.ResponseBuilder answer = Response.status(retryAfter > 0 ? 429 : 200)
                .entity(checking.instance().setLocale(locale).data("lang", locale).render())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .header("Cache-Control", "no-store");
        return (retryAfter > 0 ? answer.header("Retry-After", Long.toString(retryAfter)) : answer).build();
    }

    @POST
    @Path("/{session}/action")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "The customer completes or declines the extra verification (requires_action)")
    public Uni<Response> action(@PathParam("session") String session, @FormParam("decision") String decision,
                                @FormParam("lang") String lang) {
        String locale = PageLanguage.choose(lang, null);
        return intent(session).chain(pi -> payments.completeAction(pi.id, "approve".equals(decision), null)
                .map(x -> back(session, locale, false))
                .onFailure(ApiException.class).recoverWithItem(e -> back(session, locale, true)));
    }

    @GET
    @Path("/l/{link}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "A payment link's page (HTML): the amount, the description and a button; visiting it creates nothing")
    public Uni<Response> link(@PathParam("link") String link, @QueryParam("lang") String lang, @CookieParam(LINK_NONCE) String cookieNonce) {
        if (!Ids.isUlid(link, "pay_pl_")) {
            throw ApiException.notFound("Payment link " + link);
        }
        String locale = PageLanguage.choose(lang, null);
        boolean fresh = !validNonce(cookieNonce);
        String nonce = fresh ? ApiKeys.generate("") : cookieNonce;
        return links.visible(link).chain(l -> linkPage.instance().setLocale(locale).data("lang", locale).data("link", l)
                        .data("amount", Money.text(l.amount)).data("nonce", nonce).data("testMode", "test".equals(l.mode)).createUni())
                .map(html -> {
                    Response.ResponseBuilder ok = Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                            .header("Cache-Control", "no-store");
                    return (fresh ? ok.cookie(linkCookie(LINK_NONCE, nonce, link)) : ok).build();
                });
    }

    /**
     * The customer acts on a link: an intent is opened (or this browser session's open one reused) and the customer
     * goes to its page. The form carries the nonce of its page, which must equal this browser's SameSite=Strict cookie
     * (double submit): another site can neither read it nor make the browser send the cookie.
     */
    @POST
    @Path("/l/{link}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "The customer opens a payment from a link's page: one open payment intent per browser session, then its page")
    public Uni<Response> openLink(@PathParam("link") String link, @FormParam("nonce") String nonce, @FormParam("lang") String lang,
                                  @CookieParam(LINK_NONCE) String cookieNonce, @CookieParam(LINK_SESSION) String previousSession) {
        if (!Ids.isUlid(link, "pay_pl_")) {
            throw ApiException.notFound("Payment link " + link);
        }
        if (!validNonce(cookieNonce) || nonce == null
                || !MessageDigest.isEqual(nonce.getBytes(StandardCharsets.US_ASCII), cookieNonce.getBytes(StandardCharsets.US_ASCII))) {
            throw new ApiException(403, "FORBIDDEN", "This payment form did not come from the link's page in this browser; open the link again");
        }
        String locale = PageLanguage.choose(lang, null);
        String previous = Ids.isUlid(previousSession, "pay_cs_") ? previousSession : null;
        return links.open(link, previous).map(pi -> Response.seeOther(URI.create("/pay/" + pi.sessionId + "?lang=" + locale))
                .cookie(linkCookie(LINK_SESSION, pi.sessionId, link)).build());
    }

    private static boolean validNonce(String nonce) {
        return nonce != null && nonce.length() >= 32 && nonce.length() <= 64 && nonce.chars().allMatch(
                c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_');
    }

    private NewCookie linkCookie(String name, String value, String link) {
        return new NewCookie.Builder(name).value(value).path("/pay/l/" + link).httpOnly(true)
                .secure(urls.secure()).sameSite(NewCookie.SameSite.STRICT).maxAge(LINK_COOKIE_SECONDS).build();
    }

    private Uni<PaymentIntent> intent(String session) {
        if (!Ids.isUlid(session, "pay_cs_")) {
            throw ApiException.notFound("Checkout session " + session);
        }
        return payments.bySession(session).map(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Checkout session " + session);
            }
            return pi;
        });
    }

    private static Response back(String session, String locale, boolean error) {
        return Response.seeOther(URI.create("/pay/" + session + "?lang=" + locale + (error ? "&error=1" : ""))).build();
    }

    private Uni<Response> render(PaymentIntent pi, String lang, boolean error) {
        boolean atRail = !"test".equals(pi.mode) && pi.status.equals("requires_action");
        return (atRail ? moncash.customerRedirect(pi.id) : Uni.createFrom().<String>nullItem())
                .chain(railUrl -> render(pi, lang, error, atRail, railUrl));
    }

    private Uni<Response> render(PaymentIntent pi, String lang, boolean error, boolean atRail, String railUrl) {
        boolean test = "test".equals(pi.mode);
        boolean unexpired = pi.expiresAt.isAfter(clock.instant());
        // a live customer whose MonCash page has expired chooses again
        boolean open = unexpired && (pi.status.equals("requires_payment_method") || (atRail && railUrl == null));
        String state = open ? "choose" : railUrl != null ? "rail" : pi.status.equals("requires_action") ? "action" : "status";
        String shownStatus = pi.status.equals("requires_payment_method") ? "expired" : pi.status;
        List<MethodChoice> methods = rails.methods(pi.mode, pi.currency).stream()
                .filter(m -> m.provider().supports(pi.amount, pi.currency, "manual".equals(pi.captureMethod)))
                .map(m -> new MethodChoice(m.info().id(), methodLabelKey(m.info().id()), m.info().name(), m.available()))
                .toList();
        List<OutcomeChoice> outcomes = SimulatorProvider.SCENARIOS.stream()
                .map(o -> new OutcomeChoice(o, "outcome_" + o)).toList();
        String returnHref = pi.returnUrl != null && DONE.contains(pi.status)
                ? pi.returnUrl + (pi.returnUrl.contains("?") ? "&" : "?") + "payment_intent="
                        + URLEncoder.encode(pi.id, StandardCharsets.UTF_8)
                : null;
        return page.instance().setLocale(lang).data("lang", lang).data("pi", pi).data("amount", Money.text(pi.amount))
                .data("state", state).data("methods", methods).data("outcomes", outcomes).data("testMode", test)
                .data("error", error).data("statusKey", "status_" + shownStatus)
                .data("waiting", WAITING.contains(pi.status)).data("returnHref", returnHref).data("railUrl", railUrl)
                .createUni()
                .map(html -> Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                        .header("Cache-Control", "no-store")
                        .header("Content-Security-Policy", PageHeaders.csp(PageHeaders.INLINE_STYLES, monCashOrigin())).build());
    }

    /** The page's pay form leads, through our redirect, to MonCash's payment page: its origin, when MonCash is set up. */
    private String monCashOrigin() {
        return monCashGateway.filter(g -> !g.isBlank()).map(URI::create)
                .filter(u -> u.getScheme() != null && u.getRawAuthority() != null)
                .map(u -> u.getScheme() + "://" + u.getRawAuthority()).orElse(null);
    }

    /** The bundle key of the method's name in the page's language, or null: the page then shows the rail's own name. */
    private static String methodLabelKey(String id) {
        return switch (id) {
            case "test_card", "test_wallet" -> "method_" + id;
            default -> null;
        };
    }
}
