package ht.platform.support.health;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.StreamSupport;

/**
 * Ready only once the service's schema holds every versioned migration of this build. Pods that do not migrate at
 * start (Kubernetes runs the migrations once per release in a Job) must not serve a schema that is behind; a newer
 * schema is fine (an older replica during a rollout). Once reached, the answer is kept: a schema does not go back.
 */
@Readiness
@ApplicationScoped
public class SchemaReadiness implements AsyncHealthCheck {

    static final String NAME = "Database schema migrated";

    @Inject
    Pool pool;

    @Inject
    SchemaSettings settings;

    private volatile boolean reached;

    private final AtomicBoolean asking = new AtomicBoolean();

    /**
     * Whether the schema is known to be migrated, without waiting: when not yet known, asks the database in the
     * background (one question at a time) and answers false until the answer is in.
     */
    public boolean reached() {
        if (!reached && asking.compareAndSet(false, true)) {
            call().onTermination().invoke(() -> asking.set(false)).subscribe().with(ignored -> { });
        }
        return reached;
    }

    boolean askingNow() {
        return asking.get();
    }

    /** Asks once at start, so that the first scheduled runs ({@link SchemaPending}) find the answer in. */
    void askAtStart(@Observes StartupEvent start) {
        reached();
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        MigrationVersion expected = MigrationVersion.parse(settings.version());
        if (reached) {
            return Uni.createFrom().item(up(expected));
        }
        return pool.query(historyOf(settings.name())).execute()
                .map(rows -> {
                    MigrationVersion newest = StreamSupport.stream(rows.spliterator(), false)
                            .map(row -> MigrationVersion.parse(row.getString(0))).max(Comparator.naturalOrder()).orElse(null);
                    if (newest != null && newest.compareTo(expected) >= 0) {
                        reached = true;
                        return up(expected);
                    }
                    return HealthCheckResponse.named(NAME).down()
                            .withData("expected", expected.toString())
                            .withData("found", newest == null ? "none" : newest.toString()).build();
                })
                .onFailure().recoverWithItem(failure -> HealthCheckResponse.named(NAME).down()
                        .withData("expected", expected.toString())
                        .withData("found", isMissingTable(failure) ? "no migration history" : "database not reachable")
                        .build());
    }

    static String historyOf(String schema) {
        if (!schema.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("not a plain schema name: " + schema);
        }
        return "SELECT version FROM " + schema + ".flyway_schema_history WHERE success AND version IS NOT NULL";
    }

    private static boolean isMissingTable(Throwable failure) {
        return failure instanceof PgException pg && "42P01".equals(pg.getSqlState());
    }

    private static HealthCheckResponse up(MigrationVersion expected) {
        return HealthCheckResponse.named(NAME).up().withData("version", expected.toString()).build();
    }
}
