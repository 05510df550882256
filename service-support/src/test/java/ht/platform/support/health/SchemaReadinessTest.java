package ht.platform.support.health;

import ht.platform.support.testing.PlatformTestEnvironment;
import ht.platform.support.testing.Waiting;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A pod that does not migrate at start is ready only once the Flyway history holds the build's newest migration. */
class SchemaReadinessTest {

    static final String SCHEMA = "schema_readiness_test";
    static io.vertx.core.Vertx vertx;
    static Pool pool;

    @BeforeAll
    static void start() {
        Map<String, String> db = new PlatformTestEnvironment().start();
        vertx = io.vertx.core.Vertx.vertx();
        pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
                .connectingTo(PgConnectOptions.fromUri(db.get("quarkus.datasource.reactive.url"))
                        .setUser(db.get("quarkus.datasource.username")).setPassword(db.get("quarkus.datasource.password")))
                .using(new io.vertx.mutiny.core.Vertx(vertx)).build();
    }

    @AfterAll
    static void stop() {
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        pool.closeAndAwait();
        vertx.close();
    }

    @BeforeEach
    void freshSchema() {
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        sql("CREATE SCHEMA " + SCHEMA);
    }

    @Test
    void aSchemaWithoutHistoryIsNotReady() {
        HealthCheckResponse answer = check("52").call().await().atMost(Duration.ofSeconds(10));
        assertEquals(HealthCheckResponse.Status.DOWN, answer.getStatus());
        assertEquals("no migration history", answer.getData().orElseThrow().get("found"));
    }

    @Test
    void readyOnceTheNewestMigrationIsThereAndAfterThatWithoutAsking() {
        history();
        applied("1", true);
        applied("9", true);
        applied("10", true);
        applied("52", false);
        SchemaReadiness check = check("52");
        HealthCheckResponse behind = check.call().await().atMost(Duration.ofSeconds(10));
        assertEquals(HealthCheckResponse.Status.DOWN, behind.getStatus());
        assertEquals("10", behind.getData().orElseThrow().get("found"), "versions compare as numbers; a failed one does not count");

        applied("52", true);
        assertEquals(HealthCheckResponse.Status.UP, check.call().await().atMost(Duration.ofSeconds(10)).getStatus());

        sql("DROP SCHEMA " + SCHEMA + " CASCADE");
        assertEquals(HealthCheckResponse.Status.UP, check.call().await().atMost(Duration.ofSeconds(10)).getStatus(),
                "once reached, the probe does not query again");
    }

    @Test
    void aNewerSchemaIsReady() {
        history();
        applied("53", true);
        assertEquals(HealthCheckResponse.Status.UP, check("52").call().await().atMost(Duration.ofSeconds(10)).getStatus());
    }

    @Test
    void scheduledWorkIsSkippedUntilTheSchemaIsMigratedAndRunsFromThenOn() throws InterruptedException {
        SchemaPending pending = new SchemaPending();
        pending.readiness = check("52");
        assertTrue(pending.test(null), "no history: skipped");
        assertTrue(stillSkippedAfterTheAnswer(pending), "no history: still skipped once the database answered");

        history();
        applied("52", true);
        Waiting.until("migrated: the scheduled work runs", () -> !pending.test(null));
        sql("DROP SCHEMA " + SCHEMA + " CASCADE");
        assertFalse(pending.test(null), "once reached, the predicate does not ask again");
    }

    /** Asks until one background question has been answered (a second one starts only after the first), then asks again. */
    private static boolean stillSkippedAfterTheAnswer(SchemaPending pending) throws InterruptedException {
        SchemaReadiness readiness = pending.readiness;
        pending.test(null);
        Waiting.until("the background question answered", () -> !readiness.askingNow());
        return pending.test(null);
    }

    @Test
    void versionsAndNames() {
        assertTrue(MigrationVersion.parse("1.10").compareTo(MigrationVersion.parse("1.9")) > 0);
        assertEquals(0, MigrationVersion.parse("2_0").compareTo(MigrationVersion.parse("2")));
        assertEquals(MigrationVersion.parse("51"), MigrationVersion.ofFileName("V51__feed_head_index.sql"));
        assertEquals(null, MigrationVersion.ofFileName("R__dashboard_sessions.sql"));
        assertThrows(IllegalArgumentException.class, () -> MigrationVersion.parse("52; DROP TABLE x"));
        assertThrows(IllegalArgumentException.class, () -> SchemaReadiness.historyOf("kyc; DROP TABLE x"));
    }

    private static SchemaReadiness check(String version) {
        SchemaReadiness check = new SchemaReadiness();
        check.pool = pool;
        check.settings = new SchemaSettings() {
            @Override
            public String name() {
                return SCHEMA;
            }

            @Override
            public String version() {
                return version;
            }
        };
        return check;
    }

    private static void history() {
        sql("CREATE TABLE " + SCHEMA + ".flyway_schema_history (installed_rank int PRIMARY KEY, version varchar(50),"
                + " description varchar(200) NOT NULL, success boolean NOT NULL)");
    }

    private static void applied(String version, boolean success) {
        sql("INSERT INTO " + SCHEMA + ".flyway_schema_history VALUES ((SELECT coalesce(max(installed_rank), 0) + 1 FROM "
                + SCHEMA + ".flyway_schema_history), '" + version + "', 'm', " + success + ")");
    }

    private static void sql(String statement) {
        pool.query(statement).execute().await().atMost(Duration.ofSeconds(10));
    }
}
