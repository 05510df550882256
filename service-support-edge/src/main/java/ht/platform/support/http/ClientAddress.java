package ht.platform.support.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The client's address as the edge sees it (Vert.x's remote address: the peer, or the forwarded client when
 * {@code quarkus.http.proxy.proxy-address-forwarding} is on): the one the access log, the audit lines and the
 * per-address limits use.
 */
public final class ClientAddress {

    private ClientAddress() { }

    public static String of(RoutingContext ctx) {
        return ctx == null ? "-" : of(ctx.request());
    }

    public static String of(HttpServerRequest request) {
        SocketAddress remote = request == null ? null : request.remoteAddress();
        if (remote == null) {
            return "-";
        }
        String host = remote.hostAddress();
        return host == null || host.isEmpty() ? "-" : host;
    }
}
