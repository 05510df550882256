package ht.platform.support.http;

import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.util.Comparator;
import java.util.List;

/**
 * One line per request: method, path with its secret segments masked (hosted-page tokens, a subject's external user
 * id), status, duration, request id and the client's address ({@link ClientAddress}). Never the query string, never a header. Replaces Quarkus' access log,
 * whose patterns cannot mask a path segment.
 */
public final class AccessLog {

    static final Logger LOG = Logger.getLogger("ht.platform.access");
    static final String MASK = "***";

    private final List<String> maskedAfter;

    /** {@code maskedAfter}: path prefixes ending in "/" whose next segment is a secret, e.g. "/v/", "/pay/l/". */
    AccessLog(List<String> maskedAfter) {
        this.maskedAfter = maskedAfter.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    void start(RoutingContext ctx, String requestId) {
        long started = System.nanoTime();
        String method = ctx.request().method().name();
        String path = mask(ctx.request().path());
        String client = ClientAddress.of(ctx);
        // a plain concatenation: a printf-style line costs the formatter's parsing on every request
        ctx.addEndHandler(done -> LOG.info(method + " " + path + " " + ctx.response().getStatusCode() + " "
                + (System.nanoTime() - started) / 1_000_000 + " ms " + requestId + " client=" + client));
    }

    String mask(String path) {
        if (path == null) {
            return "";
        }
        for (String prefix : maskedAfter) {
            if (path.startsWith(prefix) && path.length() > prefix.length()) {
                int end = path.indexOf('/', prefix.length());
                return prefix + MASK + (end < 0 ? "" : path.substring(end));
            }
        }
        return CanonicalPaths.printable(path);
    }
}
