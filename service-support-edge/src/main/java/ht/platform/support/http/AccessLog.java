package ht.platform.support.http;

import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;

/**
 * One line per request: method, path with its secret segments masked (hosted-page tokens, a subject's external user
 * id), status, duration, request id and the client's address ({@link ClientAddress}). Never the query string, never a header. Replaces Quarkus' access log,
 * whose patterns cannot mask a path segment. A client's 429 answers get one line a second ({@link RefusalLines}).
 */
public final class AccessLog {

    static final Logger LOG = Logger.getLogger("ht.platform.access");
    static final String MASK = "***";

    private final List<String> maskedAfter;
    private final RefusalLines refusals;

    /** {@code maskedAfter}: path prefixes ending in "/" whose next segment is a secret, e.g. "/v/", "/pay/l/". */
    AccessLog(List<String> maskedAfter, Clock clock) {
        this.maskedAfter = maskedAfter.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        this.refusals = new RefusalLines(clock);
    }

    void start(RoutingContext ctx, String requestId) {
        long started = System.nanoTime();
        String method = ctx.request().method().name();
        String path = mask(ctx.request().path());
        String client = ClientAddress.of(ctx);
        // a plain concatenation: a printf-style line costs the formatter's parsing on every request
        ctx.addEndHandler(done -> {
            int status = ctx.response().getStatusCode();
            long leftOut = status == 429 ? refusals.admit(client) : 0;
            if (leftOut != RefusalLines.LEFT_OUT) {
                LOG.info(method + " " + path + " " + status + " " + (System.nanoTime() - started) / 1_000_000 + " ms "
                        + requestId + " client=" + client + (leftOut > 0 ? " (" + leftOut + " more 429 answers to this client not logged)" : ""));
            }
        });
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
