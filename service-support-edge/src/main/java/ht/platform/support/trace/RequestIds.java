package ht.platform.support.trace;

import ht.platform.support.crypto.Randomness;
import io.vertx.ext.web.RoutingContext;

import java.util.HexFormat;

/** Request ids: one per request, in the response header, the error body and the log line. */
public final class RequestIds {

    public static final String CONTEXT_KEY = "platform.request-id";

    private RequestIds() { }

    public static String newId() {
        byte[] bytes = new byte[12];
        Randomness.secure().nextBytes(bytes);
        return "req_" + HexFormat.of().formatHex(bytes);
    }

    public static String of(RoutingContext ctx) {
        if (ctx == null) {
            return null;
        }
        String id = ctx.get(CONTEXT_KEY);
        if (id == null) {
            id = newId();
            ctx.put(CONTEXT_KEY, id);
        }
        return id;
    }
}
