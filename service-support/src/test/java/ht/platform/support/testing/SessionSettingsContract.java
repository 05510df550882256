package ht.platform.support.testing;

import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The settings of the database sessions a service opens, read back through the service's own pool: whatever the
 * server's defaults (the Debian package turns JIT on), no statement of a service is JIT-compiled.
 */
public abstract class SessionSettingsContract {

    @Inject
    Pool pool;

    @Test
    void theServicesSessionsNeverJitCompileAStatement() {
        String jit = pool.query("SHOW jit").execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0);
        assertEquals("off", jit);
    }
}
