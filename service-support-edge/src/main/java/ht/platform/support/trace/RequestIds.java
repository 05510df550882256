package ht.platform.support.trace;

import ht.platform.support.crypto.Randomness;
import io.vertx.ext.web.RoutingContext;

import java.util.HexFormat;

/** Request ids: one per request, in the response header, the error body and the log line. */
public final class RequestIds {

    public static final String CONTEXT_KEY = "platform.request-id";

    private RequestIds() { }

    private static final int ID_BYTES = 12;
    private static final int BATCH = 64;
    private static final HexFormat HEX = HexFormat.of();
    /** Each thread's next ids' random bytes, drawn 64 ids at a time: one call to the shared SecureRandom, not one each. */
    private static final ThreadLocal<Batch> BATCHES = ThreadLocal.withInitial(Batch::new);

    private static final class Batch {
        final byte[] bytes = new byte[ID_BYTES * BATCH];
        int next = BATCH;
    }

    public static String newId() {
        Batch batch = BATCHES.get();
        if (batch.next == BATCH) {
            Randomness.secure().nextBytes(batch.bytes);
            batch.next = 0;
        }
        int from = ID_BYTES * batch.next++;
        return "req_" + HEX.formatHex(batch.bytes, from, from + ID_BYTES);
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
