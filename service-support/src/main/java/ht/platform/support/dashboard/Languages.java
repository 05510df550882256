package ht.platform.support.dashboard;

import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Locale;

/** fr (default), en, ht: chosen with ?lang= on any page and remembered in a cookie. */
@ApplicationScoped
public class Languages {

    public static final List<String> SUPPORTED = List.of("fr", "en", "ht");

    @Inject
    DashboardSettings settings;

    /** The language asked for on this request with ?lang=, or null. */
    public String requested(RoutingContext ctx) {
        String lang = ctx.request().getParam("lang");
        return lang != null && SUPPORTED.contains(lang) ? lang : null;
    }

    public String current(RoutingContext ctx) {
        String asked = requested(ctx);
        if (asked != null) {
            return asked;
        }
        Cookie cookie = ctx.request().getCookie(DashboardFilters.LANGUAGE_COOKIE);
        return cookie != null && SUPPORTED.contains(cookie.getValue()) ? cookie.getValue() : "fr";
    }

    public Locale locale(RoutingContext ctx) {
        return Locale.forLanguageTag(current(ctx));
    }

    String cookie(String lang) {
        return DashboardFilters.LANGUAGE_COOKIE + "=" + lang + "; Path=/dashboard; Max-Age=31536000; HttpOnly; SameSite=Strict"
                + (settings.secureCookie() ? "; Secure" : "");
    }
}
