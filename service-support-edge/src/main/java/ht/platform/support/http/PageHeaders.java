package ht.platform.support.http;

import io.vertx.core.http.HttpServerResponse;

import java.util.Locale;

/**
 * The one header policy of every HTML page of the platform (hosted pages and dashboards), set at the edge when a
 * response's headers are written, so no page can miss it: a strict Content-Security-Policy (nothing by default, no
 * script at all, styles of the page's own, forms to the page's own origin, never framed, no {@code <base>}),
 * {@code X-Frame-Options: DENY} and {@code Referrer-Policy: no-referrer}. Every response, pages or not, carries
 * {@code X-Content-Type-Options: nosniff}.
 *
 * A page may set its own policy built with {@link #csp(String, String)} (the dashboards' styles from their stylesheet
 * only, a form that leads to a payment provider's origin); any other policy, or none, is replaced by {@link #CSP}.
 */
public final class PageHeaders {

    private static final String FIXED = "default-src 'none'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";
    /** Hosted pages carry their styles inline. */
    public static final String INLINE_STYLES = "'self' 'unsafe-inline'";
    /** The policy of a page with inline styles whose forms post to its own origin only. */
    public static final String CSP = csp(INLINE_STYLES, null);

    private PageHeaders() { }

    /** The page policy: styles from {@code styleSrc}; forms to the page's origin and {@code formOrigin} (or none). */
    public static String csp(String styleSrc, String formOrigin) {
        return FIXED + "; style-src " + styleSrc + "; form-action 'self'" + (formOrigin == null ? "" : " " + formOrigin);
    }

    /**
     * Called as the headers are written. Quarkus's own pages under {@code /q/} (Swagger UI runs scripts) keep their
     * headers but nosniff.
     */
    public static void apply(HttpServerResponse response, String path) {
        response.headers().set("X-Content-Type-Options", "nosniff");
        String type = response.headers().get("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("text/html") || path == null || path.startsWith("/q/")) {
            return;
        }
        String csp = response.headers().get("Content-Security-Policy");
        if (csp == null || !csp.startsWith(FIXED + "; style-src ")) {
            response.headers().set("Content-Security-Policy", CSP);
        }
        response.headers().set("X-Frame-Options", "DENY");
        response.headers().set("Referrer-Policy", "no-referrer");
    }
}
