package ht.platform.kyc.web;

import ht.platform.kyc.model.Verification;
import ht.platform.kyc.provider.BuiltInChecks;
import ht.platform.kyc.service.DecisionEngine;
import ht.platform.kyc.service.HostedSteps;
import ht.platform.support.errors.ApiException;
import ht.platform.support.web.PageLanguage;
import ht.platform.support.http.TokenPath;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
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
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The hosted verification page at {@code /v/{token}}: consent, document type, document photos (front, back
 * where the document has one), selfie, result and the way back to the client's return_url. In test mode the
 * person picks the outcome instead of uploading anything. Every POST answers 303 to the page (no resubmits).
 */
@TokenPath
@Path("/v/{token}")
@Tag(name = "Hosted page")
public class HostedPageResource {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(HostedPageResource.class);
    private static final List<String> OUTCOMES = List.of("verified", "rejected", "retry_required", "unable_to_verify", "technical_error");

    @Inject
    Template page;

    @Inject
    HostedSteps steps;

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The hosted verification page (opening it moves created to started)")
    public Uni<Response> show(@PathParam("token") String token, @QueryParam("lang") String lang, @QueryParam("error") String error) {
        return steps.open(token).map(v -> {
            String locale = locale(lang, v);
            if (v == null) {
                return html(404, base(token, locale, "invalid").data("error", false));
            }
            return html(200, render(token, locale, v).data("error", error != null));
        });
    }

    @POST
    @Path("/consent")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> consent(@PathParam("token") String token, @QueryParam("lang") String lang, @RestForm("decision") String decision) {
        return back(token, lang, steps.consent(token, "accept".equals(decision)));
    }

    @POST
    @Path("/document_type")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> documentType(@PathParam("token") String token, @QueryParam("lang") String lang,
                                      @RestForm("document_type") String type) {
        return back(token, lang, steps.chooseDocument(token, type));
    }

    @POST
    @Path("/test_outcome")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> testOutcome(@PathParam("token") String token, @QueryParam("lang") String lang,
                                     @RestForm("outcome") String outcome, @RestForm("reason") String reason) {
        return back(token, lang, Uni.createFrom().deferred(() -> steps.testOutcome(token, outcome, reason)));
    }

    @POST
    @Path("/document")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Uni<Response> document(@PathParam("token") String token, @QueryParam("lang") String lang,
                                  @RestForm("front") FileUpload front, @RestForm("back") FileUpload back) {
        return upload(token, lang, Uni.createFrom().deferred(() -> steps.submitDocument(token, file(front), file(back))));
    }

    @POST
    @Path("/selfie")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    public Uni<Response> selfie(@PathParam("token") String token, @QueryParam("lang") String lang, @RestForm("selfie") FileUpload selfie) {
        return upload(token, lang, Uni.createFrom().deferred(() -> steps.submitSelfie(token, file(selfie))));
    }

    /** An upload step: 303 to the page when accepted; a refused photo answers its 4xx (or 503) with the page and its error. */
    private Uni<Response> upload(String token, String lang, Uni<Verification> step) {
        String query = lang == null || !PageLanguage.LANGUAGES.contains(lang) ? "" : "?lang=" + lang;
        return step.map(v -> Response.seeOther(URI.create("/v/" + token + query)).build())
                .onFailure(ApiException.class).recoverWithUni(e -> {
                    ApiException refused = (ApiException) e;
                    LOG.infof("page upload refused: %s %s", refused.code(), refused.param());
                    return steps.view(token).map(v -> {
                        String locale = locale(lang, v);
                        TemplateInstance page = v == null ? base(token, locale, "invalid") : render(token, locale, v);
                        Response.ResponseBuilder out = Response.fromResponse(html(refused.status(), page.data("error", true)));
                        refused.headers().forEach(out::header);
                        return out.build();
                    });
                });
    }

    private Uni<Response> back(String token, String lang, Uni<Verification> step) {
        String query = lang == null || !PageLanguage.LANGUAGES.contains(lang) ? "" : "?lang=" + lang;
        return step.map(v -> Response.seeOther(URI.create("/v/" + token + query)).build())
                .onFailure(ApiException.class).invoke(e -> LOG.infof("page step refused: %s %s (%s)", ((ApiException) e).code(),
                        ((ApiException) e).param(), e.getMessage()))
                .onFailure(ApiException.class).recoverWithItem(e -> Response.seeOther(URI.create("/v/" + token
                        + (query.isEmpty() ? "?" : query + "&") + "error=" + ((ApiException) e).code())).build());
    }

    private TemplateInstance render(String token, String locale, Verification v) {
        String step;
        if (Verification.FINAL.contains(v.status) || "retry_required".equals(v.status)) {
            step = "result";
        } else if ("processing".equals(v.status)) {
            step = "processing";
        } else if ("document_submitted".equals(v.status)) {
            step = "selfie";
        } else if (v.consentedAt == null) {
            step = "consent";
        } else if (v.documentType == null) {
            step = "document_type";
        } else {
            step = v.test() ? "test" : "document";
        }
        return base(token, locale, step)
                .data("status", v.status)
                .data("statusKey", "status_" + v.status)
                .data("returnUrl", v.returnUrl)
                .data("documentTypes", List.of(v.documentTypes).stream().map(d -> Map.of("value", d, "labelKey", "doc_" + d)).toList())
                .data("outcomes", OUTCOMES.stream().map(o -> Map.of("value", o, "labelKey", "outcome_" + o)).toList())
                .data("reasons", new TreeSet<>(DecisionEngine.REASONS))
                .data("needsBack", v.documentType != null && BuiltInChecks.TWO_SIDED.contains(v.documentType));
    }

    private TemplateInstance base(String token, String locale, String step) {
        return page.instance().setLocale(locale).data("lang", locale).data("step", step).data("base", "/v/" + token)
                .data("status", "").data("statusKey", "").data("returnUrl", null).data("documentTypes", List.of())
                .data("outcomes", List.of()).data("reasons", Set.of()).data("needsBack", false);
    }

    private static String locale(String lang, Verification v) {
        if (lang != null && PageLanguage.LANGUAGES.contains(lang)) {
            return lang;
        }
        return v == null ? "fr" : v.locale;
    }

    private static Response html(int status, TemplateInstance instance) {
        return Response.status(status).type("text/html; charset=utf-8").entity(instance.render())
                .header("Cache-Control", "no-store") // the page headers: PageHeaders, at the edge
                .build();
    }

    private static java.nio.file.Path file(FileUpload upload) {
        return upload == null ? null : upload.uploadedFile();
    }
}
