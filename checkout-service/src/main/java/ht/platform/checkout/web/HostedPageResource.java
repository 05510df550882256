package ht.platform.checkout.web;

import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.SimulatorProvider;
import ht.platform.checkout.service.Money;
import ht.platform.checkout.service.PaymentService;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.support.web.PageLanguage;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * The hosted payment page (French by default, English with ?lang=en). It shows the payment and lets the customer
 * pay; the outcome comes from the payment rail, never from the page. The return link is a display convenience.
 */
@Path("/pay")
@Tag(name = "Hosted page")
public class HostedPageResource {

    public record MethodChoice(String id, String label, boolean available) { }
    public record OutcomeChoice(String id, String labelKey) { }

    private static final Set<String> WAITING = Set.of("processing", "provider_pending", "provider_unknown");
    private static final Set<String> DONE = Set.of("succeeded", "requires_capture", "partially_refunded", "refunded",
            "failed", "cancelled", "expired");

    @Inject
    @Location("pay.html")
    Template page;

    @Inject
    PaymentService payments;

    @Inject
    PaymentRails rails;

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
                .map(x -> back(session, locale, false))
                .onFailure(ApiException.class).recoverWithItem(e -> back(session, locale, true)));
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
    @Operation(summary = "A payment link: each visit creates a fresh payment intent and redirects to its page")
    public Uni<Response> link(@PathParam("link") String link, @QueryParam("lang") String lang) {
        if (!Ids.isUlid(link, "pay_pl_")) {
            throw ApiException.notFound("Payment link " + link);
        }
        String locale = PageLanguage.choose(lang, null);
        return payments.intentForLink(link).map(pi -> Response.seeOther(URI.create("/pay/" + pi.sessionId + "?lang=" + locale)).build());
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
        Messages texts = MessageBundles.get(Messages.class, Localized.Literal.of(lang));
        boolean test = "test".equals(pi.mode);
        boolean open = pi.status.equals("requires_payment_method") && pi.expiresAt.isAfter(payments.clock().instant());
        String state = open ? "choose" : pi.status.equals("requires_action") ? "action" : "status";
        String shownStatus = pi.status.equals("requires_payment_method") ? "expired" : pi.status;
        List<MethodChoice> methods = rails.methods(pi.mode, pi.currency).stream()
                .map(m -> new MethodChoice(m.info().id(), methodLabel(texts, m.info().id(), m.info().name()), m.available()))
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
                .data("waiting", WAITING.contains(pi.status)).data("returnHref", returnHref)
                .createUni()
                .map(html -> Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                        .header("Cache-Control", "no-store").header("X-Frame-Options", "DENY")
                        .header("Referrer-Policy", "no-referrer").build());
    }

    /** The method's name in the page's language where the bundle has one, else the rail's own name. */
    private static String methodLabel(Messages texts, String id, String name) {
        return switch (id) {
            case "test_card" -> texts.method_test_card();
            case "test_wallet" -> texts.method_test_wallet();
            default -> name;
        };
    }
}
