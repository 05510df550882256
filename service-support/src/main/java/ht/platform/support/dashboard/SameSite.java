package ht.platform.support.dashboard;

import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses a form POST another site made the browser send (login CSRF: signing a victim into the attacker's tenant).
 * A browser names the requesting site in {@code Sec-Fetch-Site}, which no page can set: when present it decides
 * ({@code same-origin}, {@code same-site} and {@code none}, a link typed or bookmarked, may go on). Without it (an
 * older browser), an {@code Origin} that is not the service's own host or public base URL refuses, {@code null}
 * included (the dashboard's pages send no referrer, so a browser with Sec-Fetch-Site sends {@code Origin: null} even
 * from our own page, which is why that header decides first). A client that sends neither (curl) may go on.
 */
final class SameSite {

    private static final Set<String> OWN = Set.of("same-origin", "same-site", "none");

    private SameSite() { }

    /** Why the request is refused ("cross_site", "foreign_origin"), or null when it may go on. */
    static String refusal(HttpServerRequest request, String publicBaseUrl) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return OWN.contains(site.strip().toLowerCase(Locale.ROOT)) ? null : "cross_site";
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
