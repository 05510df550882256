package ht.platform.support.errors;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.ConnectException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Failures that say "the database is not there right now" rather than "this request is wrong": a lost or refused
 * connection, a closed pool, a server shutting down or overloaded, a serialization failure or deadlock. The
 * request changed nothing (its transaction rolled back), so the client may retry it as is.
 */
public final class TransientFailures {

    private TransientFailures() { }

    public static boolean isTransient(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ClosedConnectionException || e instanceof ConnectException || e instanceof TimeoutException) {
                return true;
            }
            if (e instanceof PgException pg && transientState(pg.getSqlState())) {
                return true;
            }
            String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
            if (message.contains("pool closed") || message.contains("connection refused")
                    || message.contains("connection reset") || message.contains("timeout acquiring")) {
                return true;
            }
        }
        return false;
    }

    /** 08 connection exception, 53 insufficient resources, 57P0x shutdown, 40001 serialization, 40P01 deadlock. */
    private static boolean transientState(String state) {
        return state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P0")
                || state.equals("40001") || state.equals("40P01"));
    }
}
