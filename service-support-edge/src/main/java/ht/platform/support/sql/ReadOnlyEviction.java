package ht.platform.support.sql;

import ht.platform.support.errors.TransientFailures;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drops the pool's connections to a node that is no longer the primary. After a failover a pooled connection can
 * still lead to the demoted node (or a proxy can hand a fresh one to a replica for the second before its health check
 * catches up); every write on it fails with SQLSTATE 25006. The first such failure starts a sweep: as many connections
 * as the pool holds are borrowed at once, and each one whose session is read-only (in recovery, or
 * {@code transaction_read_only}) ends its own backend, so the pool discards it and opens the next one through the
 * read-write address, which now leads to the new primary. At most one sweep at a time, at most one a second.
 */
@ApplicationScoped
public class ReadOnlyEviction {

    private static final Logger LOG = Logger.getLogger(ReadOnlyEviction.class);
    private static final String EVICT_IF_READ_ONLY = "SELECT pg_terminate_backend(pg_backend_pid()) "
            + "WHERE pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'";
    private static final long MIN_INTERVAL_NANOS = 1_000_000_000L;

    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime() - MIN_INTERVAL_NANOS);

    @Inject
    Pool pool;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size", defaultValue = "20")
    int poolSize;

    /** Called with any database failure; starts a sweep when it is a write refused by a read-only node. */
    public void seen(Throwable failure) {
        if (!TransientFailures.readOnlyNode(failure)) {
            return;
        }
        long now = System.nanoTime();
        long last = lastSweep.get();
        if (now - last < MIN_INTERVAL_NANOS || !lastSweep.compareAndSet(last, now) || !sweeping.compareAndSet(false, true)) {
            return;
        }
        sweep().subscribe().with(evicted -> {
            sweeping.set(false);
            LOG.warnf("a write met a read-only database node (%s); dropped %d pooled connection(s) to it",
                    failure.toString(), evicted);
        }, e -> sweeping.set(false));
    }

    /** Borrows up to the pool's size of connections at once; answers how many were read-only and ended. */
    public Uni<Integer> sweep() {
        AtomicInteger evicted = new AtomicInteger();
        List<Uni<Void>> each = new ArrayList<>(poolSize);
        for (int i = 0; i < poolSize; i++) {
            each.add(pool.withConnection(c -> c.query(EVICT_IF_READ_ONLY).execute())
                    .replaceWithVoid()
                    // the backend ended itself: the statement fails with 57P01 and the pool drops the closed connection
                    .onFailure().invoke(e -> evicted.incrementAndGet())
                    .onFailure().recoverWithNull());
        }
        return Uni.join().all(each).andCollectFailures().map(v -> evicted.get());
    }
}
