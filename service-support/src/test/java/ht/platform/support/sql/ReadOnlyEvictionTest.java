package ht.platform.support.sql;

import ht.platform.support.errors.TransientFailures;
import ht.platform.support.testing.PlatformTestEnvironment;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pool whose connections lead to a read-only node (a demoted primary, a replica behind a proxy that has not caught
 * up): sessions opened with {@code default_transaction_read_only}, as every session of a standby is. After the
 * "failover" the address leads to a writable node again, but the pooled connections still refuse writes (25006)
 * until the sweep ends them.
 */
class ReadOnlyEvictionTest {

    static final int SIZE = 4;
    static final Duration WAIT = Duration.ofSeconds(30);
    static io.vertx.core.Vertx vertx;
    static Map<String, String> db;

    @BeforeAll
    static void start() {
        db = new PlatformTestEnvironment().start();
        vertx = io.vertx.core.Vertx.vertx();
        Pool admin = pool(new AtomicBoolean(false));
        admin.query("CREATE TABLE IF NOT EXISTS read_only_eviction_test (n int)").execute().await().atMost(WAIT);
        admin.closeAndAwait();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    /** The pool's node is read-only while {@code demoted} is set; the same address, as a proxy would route it. */
    static Pool pool(AtomicBoolean demoted) {
        PgConnectOptions base = PgConnectOptions.fromUri(db.get("quarkus.datasource.reactive.url"))
                .setUser(db.get("quarkus.datasource.username")).setPassword(db.get("quarkus.datasource.password"));
        return PgBuilder.pool().with(new PoolOptions().setMaxSize(SIZE))
                .connectingTo(() -> Uni.createFrom().<SqlConnectOptions>item(new PgConnectOptions(base)
                        .setProperties(demoted.get() ? Map.of("default_transaction_read_only", "on") : Map.of())))
                .using(new io.vertx.mutiny.core.Vertx(vertx)).build();
    }

    static ReadOnlyEviction eviction(Pool pool) {
        ReadOnlyEviction eviction = new ReadOnlyEviction();
        eviction.pool = pool;
        eviction.poolSize = SIZE;
        return eviction;
    }

    static Uni<Void> insert(Pool pool) {
        return pool.query("INSERT INTO read_only_eviction_test VALUES (1)").execute().replaceWithVoid();
    }

    /**
     * An ended session's close can reach the pool just after the sweep returned its connection: a write handed that
     * connection fails as closed (a transient failure, 503). Never again as read-only: the read-only sessions are gone.
     */
    static void writeOnceClosingConnectionsAreGone(Pool pool) {
        for (int attempt = 0; ; attempt++) {
            Throwable failed = insert(pool).onItem().transform(v -> (Throwable) null).onFailure().recoverWithItem(e -> e).await().atMost(WAIT);
            if (failed == null) {
                return;
            }
            assertTrue(!TransientFailures.readOnlyNode(failed) && TransientFailures.isTransient(failed), "after the sweep: " + failed);
            assertTrue(attempt < SIZE, "still failing after " + SIZE + " attempts: " + failed);
        }
    }

    @Test
    void connectionsToAReadOnlyNodeAreDroppedAndTheNextWriteReachesTheWritableOne() {
        AtomicBoolean demoted = new AtomicBoolean(true);
        Pool pool = pool(demoted);
        try {
            // fill the pool: SIZE connections held at once, so SIZE distinct sessions, all read-only
            List<Uni<Void>> held = new ArrayList<>();
            for (int i = 0; i < SIZE; i++) {
                held.add(pool.withConnection(c -> c.query("SELECT pg_sleep(0.2)").execute()).replaceWithVoid());
            }
            Uni.join().all(held).andFailFast().await().atMost(WAIT);
            demoted.set(false);

            Throwable refused = insert(pool).onItem().transform(v -> (Throwable) null)
                    .onFailure().recoverWithItem(e -> e).await().atMost(WAIT);
            assertTrue(refused != null && TransientFailures.readOnlyNode(refused), "a write on a read-only session: " + refused);
            assertTrue(TransientFailures.isTransient(refused), "answered 503 with Retry-After, not 500");

            assertEquals(SIZE, eviction(pool).sweep().await().atMost(WAIT), "every pooled read-only connection ended");
            writeOnceClosingConnectionsAreGone(pool);
            assertEquals(0, eviction(pool).sweep().await().atMost(WAIT), "writable connections stay");
            insert(pool).await().atMost(WAIT);
        } finally {
            pool.closeAndAwait();
        }
    }
}
