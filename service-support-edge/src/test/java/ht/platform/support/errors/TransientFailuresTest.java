package ht.platform.support.errors;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransientFailuresTest {

    @Test
    void aLostOrRefusedDatabaseIsTransientEvenWhenWrapped() {
        assertTrue(TransientFailures.isTransient(new CompletionException(ClosedConnectionException.INSTANCE)));
        assertTrue(TransientFailures.isTransient(new RuntimeException(new ConnectException("Connection refused"))));
        assertTrue(TransientFailures.isTransient(new VertxException("Pool closed", true)));
        assertTrue(TransientFailures.isTransient(new PgException("terminating connection due to administrator command", "FATAL", "57P01", null)));
        assertTrue(TransientFailures.isTransient(new PgException("the database system is starting up", "FATAL", "57P03", null)));
        assertTrue(TransientFailures.isTransient(new PgException("deadlock detected", "ERROR", "40P01", null)));
    }

    /** Issue 22: what a Postgres restart throws on the paths that answered 500 (JDBC, composites, closed channels). */
    @Test
    void everyConnectionLevelFailureOfARestartIsTransient() {
        assertTrue(TransientFailures.isTransient(new java.sql.SQLException("An I/O error occurred while sending to the backend.", "08006")));
        assertTrue(TransientFailures.isTransient(new RuntimeException(new java.sql.SQLTransientConnectionException("Sorry, acquisition timeout!"))));
        // seen in PostgresRestartIT's kyc run: the rollback's complaint first, the lost connection second
        assertTrue(TransientFailures.isTransient(new io.smallrye.mutiny.CompositeException(
                new IllegalStateException("HR000090: Live transaction detected while closing the connection: it will be roll backed"),
                ClosedConnectionException.INSTANCE)));
        assertTrue(TransientFailures.isTransient(new RuntimeException(new java.nio.channels.ClosedChannelException())));
        assertTrue(TransientFailures.isTransient(new java.net.SocketException("Broken pipe")));
        RuntimeException suppressing = new RuntimeException("work failed");
        suppressing.addSuppressed(new PgException("the database system is shutting down", "FATAL", "57P03", null));
        assertTrue(TransientFailures.isTransient(suppressing));
        assertTrue(TransientFailures.isTransient(new VertxException("Connection was closed", true)));
        // every pooled connection busy past the pool's wait (commits slowed by a failover): nothing was done
        assertTrue(TransientFailures.isTransient(new VertxException("Timeout waiting for connection")));
        // a failover: the proxy closed the pooled connection to the lost primary while a request held it
        assertTrue(TransientFailures.isTransient(new io.smallrye.mutiny.CompositeException(
                new VertxException("Connection is not active now, current status: CLOSED", true),
                new IllegalStateException("HR000090: Live transaction detected while closing the connection: it will be roll backed"))));
    }

    /** A demoted primary or a replica refuses writes: nothing was written, the primary is elsewhere, retry. */
    @Test
    void aWriteRefusedByANodeThatIsNotThePrimaryIsTransient() {
        PgException readOnly = new PgException("cannot execute INSERT in a read-only transaction", "ERROR", "25006", null);
        assertTrue(TransientFailures.isTransient(new CompletionException(readOnly)));
        assertTrue(TransientFailures.readOnlyNode(new CompletionException(readOnly)));
        assertTrue(TransientFailures.readOnlyNode(new RuntimeException("cannot execute LISTEN during recovery")));
        assertTrue(TransientFailures.readOnlyNode(new java.sql.SQLException("cannot execute UPDATE in a read-only transaction", "25006")));
        assertFalse(TransientFailures.readOnlyNode(ClosedConnectionException.INSTANCE));
        assertFalse(TransientFailures.readOnlyNode(new PgException("duplicate key value", "ERROR", "23505", null)));
    }

    /** An operator's DROP SCHEMA before a restore to a point in time: 503 with Retry-After, not 500. */
    @Test
    void aSchemaThatIsNotThereIsTransient() {
        assertTrue(TransientFailures.isTransient(new PgException("relation \"wallet.payments\" does not exist", "ERROR", "42P01", null)));
        assertTrue(TransientFailures.isTransient(new CompletionException(new PgException("schema \"wallet\" does not exist", "ERROR", "3F000", null))));
        assertTrue(TransientFailures.isTransient(new java.sql.SQLException("relation \"checkout.payment_intents\" does not exist", "42P01")));
        assertFalse(TransientFailures.isTransient(new PgException("column \"amount\" does not exist", "ERROR", "42703", null)));
    }

    @Test
    void bugsAndConstraintViolationsAreNot() {
        assertFalse(TransientFailures.isTransient(new NullPointerException()));
        assertFalse(TransientFailures.isTransient(new PgException("duplicate key value", "ERROR", "23505", null)));
        assertFalse(TransientFailures.isTransient(new PgException("syntax error", "ERROR", "42601", null)));
        assertFalse(TransientFailures.isTransient(new IllegalStateException("decryption failed")));
        assertFalse(TransientFailures.isTransient(new java.io.IOException("Unsupported image type")));
        assertFalse(TransientFailures.isTransient(new java.sql.SQLException("duplicate key", "23505")));
    }
}
