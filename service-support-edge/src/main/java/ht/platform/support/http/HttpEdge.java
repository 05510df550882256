package ht.platform.support.http;

import ht.platform.support.errors.ErrorResponses;
import ht.platform.support.errors.TransientFailures;
import ht.platform.support.trace.RequestIds;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * The edge every request crosses: request id header, 404 for a path that is not spelled canonically, early 413 for
 * oversized bodies, and JSON answers for what never reaches a resource (unknown paths, framework failures) instead
 * of HTML pages.
 */
@ApplicationScoped
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);

    @Inject
    HttpSettings settings;

    @Inject
    ErrorResponses errors;

    @Inject
    Clock clock;

    private AccessLog accessLog;
    private RateLimitedWarning unreadableBodies;

    private void requestId(RoutingContext ctx) {
        String id = RequestIds.of(ctx);
        MDC.put("requestId", id);
        accessLog.start(ctx, id);
        ctx.response().putHeader(settings.requestIdHeader(), id);
        ctx.addHeadersEndHandler(v -> PageHeaders.apply(ctx.response(), ctx.normalizedPath()));
        if (!CanonicalPaths.isCanonical(ctx.request().path(), ctx.normalizedPath())) {
            errors.write(ctx, 404, "NOT_FOUND", "No such resource: " + CanonicalPaths.printable(ctx.request().path()));
            return;
        }
        String refused = refusedText(ctx);
        if (refused != null) {
            errors.write(ctx, 400, "INVALID_REQUEST", "'" + refused + "' contains a control character such as NUL (\\u0000)", refused);
            return;
        }
        long limit = settings.limitFor(ctx.normalizedPath());
        String length = ctx.request().getHeader("Content-Length");
        if (length != null && tooLarge(length, limit)) {
            ctx.response().putHeader("Connection", "close");
            errors.write(ctx, 413, "PAYLOAD_TOO_LARGE", tooLargeMessage(limit));
            return;
        }
        if (length == null && ctx.request().headers().contains("Transfer-Encoding", "chunked", true) && !multipart(ctx)) {
            // a chunked body the decoder cannot read fails the connection (its handler first), which then closes
            ctx.request().connection().exceptionHandler(failure -> {
                if (!(failure instanceof IOException)) {
                    unreadable(ctx, failure);
                }
            });
            BodyHandler.create(false).setBodyLimit(limit).handle(ctx);
            ctx.request().exceptionHandler(failure -> {
                if (!ctx.response().ended()) {
                    ctx.fail(failure); // a connection lost mid-body, as the body handler would
                }
            });
            return;
        }
        ctx.next();
    }

    /**
     * The name of a query parameter or header whose value Postgres could not store (NUL) or no client means to send
     * (other control characters but tab); null when there is none.
     */
    private static String refusedText(RoutingContext ctx) {
        for (var header : ctx.request().headers()) {
            if (ControlCharacters.in(header.getValue(), true)) {
                return header.getKey();
            }
        }
        if (ctx.request().query() == null) {
            return null;
        }
        try {
            for (var param : ctx.queryParams()) {
                if (ControlCharacters.in(param.getKey(), true) || ControlCharacters.in(param.getValue(), false)) {
                    return param.getKey();
                }
            }
        } catch (IllegalArgumentException e) {
            return "query";
        }
        return null;
    }

    /**
     * The request's body is not HTTP the decoder can read (a malformed chunk size, an overlong chunk line): the
     * client's mistake, answered 400 before Vert.x closes the connection (flushed now, as Vert.x holds writes back
     * until the read ends and the close would drop them) and warned about once a minute.
     */
    private void unreadable(RoutingContext ctx, Throwable failure) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        unreadableBodies.warn("Refused a request body that is not valid HTTP/1.1 (" + failure.getClass().getSimpleName() + ")");
        ctx.response().putHeader("Connection", "close");
        errors.write(ctx, 400, "INVALID_REQUEST", "The request body is not valid HTTP/1.1 (such as a malformed chunk"
                + " size); the connection is closed");
        if (ctx.request().connection() instanceof ConnectionBase connection) {
            connection.channel().flush();
        }
    }

    void routes(@Observes Router router) {
        accessLog = new AccessLog(settings.accessLogMaskedAfter(), clock);
        unreadableBodies = new RateLimitedWarning(LOG, clock, Duration.ofMinutes(1));
        router.route().order(-10_000).handler(this::requestId);
        router.route().order(Integer.MIN_VALUE).failureHandler(this::failure);
        router.route().order(Integer.MAX_VALUE - 10).handler(ctx -> errors.write(ctx, 404, "NOT_FOUND",
                "No such resource: " + ctx.request().path()));
    }

    private void failure(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (status == 413) {
            errors.write(ctx, 413, "PAYLOAD_TOO_LARGE", tooLargeMessage(settings.limitFor(ctx.normalizedPath())));
        } else if (status >= 400 && status < 500) {
            errors.write(ctx, status, status == 404 ? "NOT_FOUND" : "INVALID_REQUEST",
                    status == 404 ? "No such resource: " + ctx.request().path() : "The request cannot be processed");
        } else if (ctx.failure() != null && TransientFailures.isTransient(ctx.failure())) {
            ctx.response().putHeader("Retry-After", "1");
            errors.write(ctx, 503, "SERVICE_UNAVAILABLE", "The service is briefly unavailable; nothing was changed, retry the request");
        } else {
            Throwable failure = ctx.failure();
            LOG.errorf("request %s failed: %s", RequestIds.of(ctx), failure == null ? status : failure.toString());
            errors.write(ctx, 500, "INTERNAL_ERROR", "An internal error occurred; quote the request id when contacting support");
        }
    }

    /** Multipart uploads are left to the framework, bounded by quarkus.http.limits.max-body-size. */
    private static boolean multipart(RoutingContext ctx) {
        String type = ctx.request().getHeader("Content-Type");
        return type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/");
    }

    private static String tooLargeMessage(long limit) {
        return limit % (1024 * 1024) == 0
                ? "The request body is larger than " + limit / (1024 * 1024) + " MiB"
                : "The request body is larger than " + limit + " bytes";
    }

    private static boolean tooLarge(String length, long limit) {
        try {
            return Long.parseLong(length.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
