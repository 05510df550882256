package ht.platform.support.testing;

import io.restassured.response.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every page route of a service answers with the one page header policy: each route of the module's {@code web}
 * resources (hosted pages, dashboards; ids made up, so that error pages are walked too), the shared dashboard sign-in
 * page, and the real pages the service's test adds. Every answer has {@code nosniff}; every HTML one the strict CSP
 * ({@code default-src 'none'}, {@code frame-ancestors 'none'}, {@code base-uri 'none'}, no script), {@code
 * X-Frame-Options: DENY} and {@code Referrer-Policy: no-referrer}.
 */
public final class PageHeadersContract {

    private PageHeadersContract() { }

    /** {@code realPages}: "GET /path" of pages that exist (a hosted page of a real object); answers how many were HTML. */
    public static int assertEveryPage(List<String> realPages) {
        List<String> routes = new ArrayList<>(ResourceRoutes.matching(type -> type.getPackageName().contains(".web"),
                "in a web package"));
        routes.add("GET /dashboard/session/sign_in");
        routes.addAll(realPages);
        int html = 0;
        List<String> seen = new ArrayList<>();
        for (String route : routes) {
            String verb = route.substring(0, route.indexOf(' '));
            String path = route.substring(route.indexOf(' ') + 1).replaceAll("\\{[^}]+}", "x_1");
            Response answer = verb.equals("GET") ? given().redirects().follow(false).get(path)
                    : given().redirects().follow(false).contentType("application/x-www-form-urlencoded").formParam("lang", "fr")
                    .request(verb, path);
            String what = route + " -> " + answer.statusCode() + " " + answer.contentType();
            seen.add(what);
            assertEquals("nosniff", answer.header("X-Content-Type-Options"), what);
            if (answer.contentType() != null && answer.contentType().toLowerCase(Locale.ROOT).startsWith("text/html")) {
                html++;
                String csp = answer.header("Content-Security-Policy");
                assertNotNull(csp, what + ": no Content-Security-Policy");
                for (String directive : List.of("default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'",
                        "form-action 'self'")) {
                    assertTrue(csp.contains(directive), what + ": " + csp + " lacks " + directive);
                }
                assertTrue(!csp.contains("script-src") && !csp.contains("*"), what + ": " + csp);
                assertEquals("DENY", answer.header("X-Frame-Options"), what);
                assertEquals("no-referrer", answer.header("Referrer-Policy"), what);
            }
        }
        assertTrue(html >= 2 + realPages.size(), "pages answered with HTML: " + seen);
        return html;
    }
}
