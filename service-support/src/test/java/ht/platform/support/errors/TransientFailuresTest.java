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

    @Test
    void bugsAndConstraintViolationsAreNot() {
        assertFalse(TransientFailures.isTransient(new NullPointerException()));
        assertFalse(TransientFailures.isTransient(new PgException("duplicate key value", "ERROR", "23505", null)));
        assertFalse(TransientFailures.isTransient(new PgException("syntax error", "ERROR", "42601", null)));
        assertFalse(TransientFailures.isTransient(new IllegalStateException("decryption failed")));
    }
}
