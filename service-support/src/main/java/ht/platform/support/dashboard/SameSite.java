package ht.platform.support.dashboard;

import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses a form POST another site made the browser send (login CSRF: signing a victim into the attacker's tenant).
 * A browser names the requesting site in {@code Sec-Fetch-Site} and its origin in {@code Origin}; either one
 * pointing elsewhere refuses. A client that sends neither (curl, an old browser) is let through, as is the
 * dashboard's own page (same-origin) and a link typed or bookmarked (none).
 */
final class SameSite {

    private static final Set<String> OWN = Set.of("same-origin", "same-site", "none");

    private SameSite() { }

    /** Why the request is refused ("cross_site", "foreign_origin"), or null when it may go on. */
    static String refusal(HttpServerRequest request, String publicBaseUrl) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !OWN.contains(site.strip().toLowerCase(Locale.ROOT))) {
            return "cross_site";
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return null;
        }
        String authority = authority(origin);
        if (authority == null) {
            return "foreign_origin"; // "null" (a sandboxed frame, a data: page) or garbage
        }
        String host = request.getHeader("Host");
        return authority.equalsIgnoreCase(host == null ? "" : host.strip()) || authority.equalsIgnoreCase(authority(publicBaseUrl))
                ? null : "foreign_origin";
    }

    private static String authority(String origin) {
        try {
            URI uri = URI.create(origin.strip());
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
                return null;
            }
            int port = uri.getPort();
            boolean standard = port < 0 || port == ("https".equalsIgnoreCase(scheme) ? 443 : 80);
            return uri.getHost() + (standard ? "" : ":" + port);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
