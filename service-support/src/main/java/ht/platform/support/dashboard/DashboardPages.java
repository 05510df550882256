package ht.platform.support.dashboard;

import ht.platform.support.errors.ApiException;
import ht.platform.support.tenancy.Tenancy;
import io.quarkus.qute.Engine;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Renders the signed-in pages inside the shared layout and runs the dashboard's actions: each action is audited and
 * counted, a rule's refusal (the service's 4xx) becomes an error page with the same status, never a 500.
 */
@ApplicationScoped
public class DashboardPages {

    private static final Logger LOG = Logger.getLogger(DashboardPages.class);

    /** What the layout shows around every page. */
    public record Chrome(String title, String tenant, String mode, boolean liveAllowed, String csrf, String lang,
                         String active, String done, java.util.Set<String> permissions) {
        public boolean test() {
            return "test".equals(mode);
        }
    }

    @Inject
    Engine engine;

    @Inject
    Merchant merchant;

    @Inject
    CurrentVertxRequest request;

    @Inject
    Languages languages;

    @Inject
    Tenancy tenants;

    @Inject
    DashboardSettings settings;

    @Inject
    DashboardAudit audit;

    /** A page: {@code template} (under templates/) with {@code data}, the nav entry {@code active} highlighted. */
    public Uni<Response> show(String template, String active, Supplier<Uni<Map<String, Object>>> data) {
        return Uni.createFrom().deferred(() -> data.get()).chain(values -> render(template, active, values, 200))
                .onFailure(ApiException.class).recoverWithUni(e -> error((ApiException) e));
    }

    /** A page with data computed without the database. */
    public Uni<Response> show(String template, String active, Map<String, Object> data) {
        return show(template, active, () -> Uni.createFrom().item(data));
    }

    /**
     * An action (a POST form): {@code work} calls the same service method as the API; on success the browser goes to
     * {@code next(result)} (303, so a reload does not repeat it).
     */
    public <T> Uni<Response> act(String action, String target, Supplier<Uni<T>> work, Function<T, String> next) {
        return run(action, target, work).map(result -> Response.seeOther(URI.create(next.apply(result))).build())
                .onFailure(ApiException.class).recoverWithUni(e -> error((ApiException) e));
    }

    /** An action whose answer is a page (the secret shown once, for instance). */
    public <T> Uni<Response> actAndShow(String action, String target, Supplier<Uni<T>> work, String template, String active,
                                       Function<T, Map<String, Object>> data) {
        return run(action, target, work).chain(result -> render(template, active, data.apply(result), 200))
                .onFailure(ApiException.class).recoverWithUni(e -> error((ApiException) e));
    }

    private <T> Uni<T> run(String action, String target, Supplier<Uni<T>> work) {
        return Uni.createFrom().<T>deferred(() -> work.get()).invoke(x -> audit.action(action, target, "ok", merchant.session(), merchant.requestId()))
                .onFailure(ApiException.class).invoke(e -> audit.action(action, target,
                        "refused_" + ((ApiException) e).status(), merchant.session(), merchant.requestId()));
    }

    private Uni<Response> error(ApiException e) {
        if (e.status() >= 500) {
            LOG.warnf("dashboard request %s: %s", merchant.requestId(), e.getMessage());
        }
        return render("dashboard/error", null, Map.of("status", e.status(), "code", e.code(),
                "message", e.getMessage() == null ? "" : e.getMessage()), e.status());
    }

    private Uni<Response> render(String template, String active, Map<String, Object> values, int status) {
        DashboardSession s = merchant.session();
        var ctx = request.getCurrent();
        String lang = languages.current(ctx);
        return tenants.standing(s.ownerId()).chain(tenant -> {
            TemplateInstance page = engine.getTemplate(template).instance();
            values.forEach(page::data);
            page.data("chrome", new Chrome(settings.title(), tenant == null ? s.ownerId() : tenant.name(), s.mode(),
                    s.liveAllowed(), s.csrfToken(), lang, active, ctx.request().getParam("done"), s.permissions()));
            page.setLocale(languages.locale(ctx));
            return page.createUni();
        }).map(html -> Response.status(status).type("text/html;charset=UTF-8").entity(html).build());
    }
}
