package ht.platform.support.errors;

import io.smallrye.mutiny.CompositeException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Failures that say "the database is not there right now" rather than "this request is wrong": a lost or refused
 * connection, a closed pool, a server shutting down, starting up or overloaded, a serialization failure or deadlock.
 * The request changed nothing (its transaction rolled back), so the client may retry it as is.
 *
 * <p>Every connection-level failure counts, on either client (Vert.x' reactive one, JDBC) and however it is wrapped:
 * the whole cause chain is searched, with the suppressed failures and each failure of a composite (Mutiny's, when a
 * rollback on a dead connection fails too). So is a socket failure (reset, broken pipe, a closed channel, a refused
 * or timed-out connection), which on a request's path is the database's socket.
 *
 * <p>So is a node that is no longer the primary: a demoted primary or a replica answers every write with SQLSTATE
 * 25006 ("cannot execute ... in a read-only transaction", "... during recovery"); the write did not happen, and the
 * primary is elsewhere ({@link #readOnlyNode} tells the pool to drop such connections).
 *
 * <p>So is a schema that is not there: SQLSTATE 3F000 (no such schema) or 42P01 (no such table) while an operator's
 * accident is undone by a restore, or before the migrate Job has run. The service cannot serve, the client did nothing
 * wrong, and the same request succeeds once the schema is back.
 */
public final class TransientFailures {

    private static final String[] MESSAGES = {"pool closed", "connection refused", "connection reset", "timeout acquiring",
            "connection is closed", "connection closed", "connection was closed", "broken pipe", "terminating connection",
            "the database system is", "acquisition timeout", "no connection", "failed to connect", "connection attempt failed",
            "connection may have been lost", "unable to open a connection", "connection is not active",
            "timeout waiting for connection"};

    /** read_only_sql_transaction */
    private static final String READ_ONLY = "25006";

    private TransientFailures() { }

    public static boolean isTransient(Throwable error) {
        return anyCause(error, TransientFailures::connectionLevel);
    }

    /** Whether the failure is a write refused by a node that is not (or no longer) the primary: SQLSTATE 25006. */
    public static boolean readOnlyNode(Throwable error) {
        return anyCause(error, TransientFailures::readOnly);
    }

    private static boolean anyCause(Throwable error, Predicate<Throwable> test) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> todo = new ArrayDeque<>();
        if (error != null) {
            todo.add(error);
        }
        while (!todo.isEmpty()) {
            Throwable e = todo.poll();
            if (!seen.add(e) || seen.size() > 64) {
                continue;
            }
            if (test.test(e)) {
                return true;
            }
            if (e.getCause() != null) {
                todo.add(e.getCause());
            }
            if (e instanceof CompositeException composite) {
                todo.addAll(composite.getCauses());
            }
            Collections.addAll(todo, e.getSuppressed());
        }
        return false;
    }

    private static boolean readOnly(Throwable e) {
        String state = e instanceof PgException pg ? pg.getSqlState() : e instanceof SQLException sql ? sql.getSQLState() : null;
        if (READ_ONLY.equals(state)) {
            return true;
        }
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return message.contains("in a read-only transaction") || message.contains("during recovery");
    }

    private static boolean connectionLevel(Throwable e) {
        if (e instanceof ClosedConnectionException || e instanceof SocketException || e instanceof SocketTimeoutException
                || e instanceof ClosedChannelException || e.getClass().getName().endsWith(".Errors$NativeIoException")
                || e instanceof TimeoutException || e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
            return true;
        }
        if (readOnly(e)) {
            return true;
        }
        if (e instanceof PgException pg && transientState(pg.getSqlState())) {
            return true;
        }
        if (e instanceof SQLException sql && transientState(sql.getSQLState())) {
            return true;
        }
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        for (String m : MESSAGES) {
            if (message.contains(m)) {
                return true;
            }
        }
        return false;
    }

    /**
     * 08 connection exception, 53 insufficient resources, 57P0x shutdown, 40001 serialization, 40P01 deadlock,
     * 3F000 invalid schema name, 42P01 undefined table.
     */
    private static boolean transientState(String state) {
        return state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P0")
                || state.equals("40001") || state.equals("40P01") || state.equals("3F000") || state.equals("42P01"));
    }
}
