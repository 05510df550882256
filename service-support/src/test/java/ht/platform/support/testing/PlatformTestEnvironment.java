package ht.platform.support.testing;

import ht.platform.devpostgres.EmbeddedPostgresServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The database every {@code @QuarkusTest} and {@code @QuarkusIntegrationTest} of a service runs against, chosen once
 * per test JVM:
 * <ol>
 *   <li>{@code DB_JDBC_URL} (and {@code DB_REACTIVE_URL}) when set: that database, created when missing;</li>
 *   <li>else the machine's PostgreSQL when 127.0.0.1:5432 answers: its database {@code platform_test}, created when
 *       missing;</li>
 *   <li>else one embedded PostgreSQL 15 for the whole build ({@link EmbeddedPostgresServer}, kept in the root
 *       {@code target/embedded-postgres}), stopped when the Maven build ends.</li>
 * </ol>
 * {@code PLATFORM_TEST_PG=embedded} forces the third, {@code PLATFORM_TEST_PG=machine} the second. The chosen URL is
 * left in the system property {@value TestDatabase#URL_PROPERTY} for {@link TestDatabase}.
 *
 * <p>Each service applies it to all its tests with one class carrying
 * {@code @WithTestResource(value = PlatformTestEnvironment.class, scope = TestResourceScope.GLOBAL)}.
 */
public class PlatformTestEnvironment implements QuarkusTestResourceLifecycleManager {

    static final String DATABASE = "platform_test";
    private static volatile Map<String, String> chosen;

    @Override
    public Map<String, String> start() {
        return choose();
    }

    @Override
    public void stop() {
        // the database outlives each application restart; the embedded server's watchdog stops it with the build
    }

    static synchronized Map<String, String> choose() {
        if (chosen == null) {
            String user = env("DB_USER", "postgres");
            String password = env("DB_PASSWORD", "");
            String jdbc = env("DB_JDBC_URL", null);
            String reactive = env("DB_REACTIVE_URL", null);
            String where;
            if (jdbc != null) {
                reactive = reactive != null ? reactive : jdbc.substring("jdbc:".length());
                EmbeddedPostgresServer.createDatabase(adminUrl(jdbc), user, password, databaseOf(jdbc));
                where = "DB_JDBC_URL";
            } else {
                String mode = env("PLATFORM_TEST_PG", "auto").toLowerCase(Locale.ROOT);
                int port;
                if (mode.equals("machine") || (mode.equals("auto") && EmbeddedPostgresServer.answers(5432))) {
                    port = 5432;
                    where = "the machine's PostgreSQL on 127.0.0.1:5432";
                } else {
                    Path dir = buildRoot().resolve("target/embedded-postgres");
                    port = embedded(dir);
                    where = "embedded PostgreSQL 15 in " + dir + " (PLATFORM_TEST_PG=" + mode + ")";
                    user = "postgres";
                    password = "";
                }
                jdbc = "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
                reactive = "postgresql://127.0.0.1:" + port + "/" + DATABASE;
                EmbeddedPostgresServer.createDatabase(adminUrl(jdbc), user, password, DATABASE);
            }
            System.setProperty(TestDatabase.URL_PROPERTY, jdbc);
            System.setProperty(TestDatabase.USER_PROPERTY, user);
            System.setProperty(TestDatabase.PASSWORD_PROPERTY, password);
            if (System.getProperty("platform.test.announced") == null) { // once per JVM, whichever class loader asks
                System.setProperty("platform.test.announced", "true");
                System.out.println("[test database] " + jdbc + " from " + where);
            }
            chosen = Map.of(
                    "quarkus.datasource.migrations.jdbc.url", jdbc,
                    "quarkus.datasource.migrations.username", user,
                    "quarkus.datasource.migrations.password", password,
                    "quarkus.datasource.reactive.url", reactive,
                    "quarkus.datasource.username", user,
                    "quarkus.datasource.password", password);
        }
        return chosen;
    }

    private static int embedded(Path dir) {
        // the owner is the process that forked this test JVM (Maven), so the server lives as long as the build
        long owner = ProcessHandle.current().parent()
                .map(ProcessHandle::pid).filter(pid -> pid > 1).orElse(ProcessHandle.current().pid());
        try {
            return EmbeddedPostgresServer.ensureRunning(dir, owner);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The directory holding .mvn (the reactor root), else the working directory. */
    private static Path buildRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(".mvn"))) {
                return p;
            }
        }
        return start;
    }

    private static String adminUrl(String jdbcUrl) {
        int slash = jdbcUrl.indexOf('/', "jdbc:postgresql://".length());
        int query = jdbcUrl.indexOf('?');
        return jdbcUrl.substring(0, slash) + "/postgres" + (query < 0 ? "" : jdbcUrl.substring(query));
    }

    private static String databaseOf(String jdbcUrl) {
        int slash = jdbcUrl.indexOf('/', "jdbc:postgresql://".length());
        int query = jdbcUrl.indexOf('?');
        return jdbcUrl.substring(slash + 1, query < 0 ? jdbcUrl.length() : query);
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? otherwise : value;
    }
}
