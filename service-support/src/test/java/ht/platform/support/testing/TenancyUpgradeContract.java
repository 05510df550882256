package ht.platform.support.testing;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static ht.platform.support.testing.OutboxMigrationCheck.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database made by the releases before the shared tenancy migration (the service's own V1, kept as released in
 * tenancy-upgrade/released-v1.zip, and the service's other migrations), holding a tenant, its key and an idempotency
 * key, meets today's migrations: Flyway validates it, runs nothing, its rows and tables are as they were, and its
 * history and schema are those of a new database.
 */
public abstract class TenancyUpgradeContract {

    /** An INSERT of the owner {@code own_1} into the service's owner table, as the release before stores one. */
    protected abstract String ownerRow();

    @Test
    void aDatabaseOfTheReleaseBeforeIsTakenOverWithoutTouchingItsRows() throws Exception {
        String schema = ServiceFlyway.property("quarkus.flyway.migrations.default-schema");
        String owner = ServiceFlyway.property("quarkus.flyway.migrations.placeholders.owner");
        String grants = ServiceFlyway.property("quarkus.flyway.migrations.placeholders.grants");
        String before = database("platform_tenancy_before_" + schema);
        Path released = releasedLayout(schema);
        Flyway.configure().dataSource(before, user(), password()).schemas(schema).defaultSchema(schema).createSchemas(true)
                .locations(locations(released)).load().migrate();
        List<String> tables = List.of(owner + "s", "api_keys", "idempotency_keys");
        try (Connection c = connect(before); Statement s = c.createStatement()) {
            // as Quarkus records them: with their classpath location (db/migration/V1__kyc.sql)
            for (String dir : ServiceFlyway.locations().stream().filter(l -> !l.equals("db/tenancy")).toList()) {
                s.execute("UPDATE " + schema + ".flyway_schema_history SET script = '" + dir + "/' || script"
                        + " WHERE script IN (SELECT f FROM unnest(ARRAY['" + String.join("','", files(released.resolve(dir)))
                        + "']) f)");
            }
            s.execute(ownerRow());
            s.execute("INSERT INTO " + schema + ".api_keys (id, " + owner + "_id, key_hash, key_hint, mode, " + grants
                    + ", created_at) VALUES ('key_1', 'own_1', 'hash_1', 'test_...abcd', 'test', '{a:read,b:write}',"
                    + " '2026-01-02T03:04:05Z')");
            s.execute("INSERT INTO " + schema + ".idempotency_keys VALUES ('own_1', 'test', 'idem_1', 'rh', 201, '{}',"
                    + " '2026-01-02T03:04:06Z')");
        }
        List<String> rowsBefore;
        List<String> catalogBefore;
        try (Connection c = connect(before)) {
            rowsBefore = tenancyRows(c, schema, tables);
            catalogBefore = catalog(c, schema);
        }

        Flyway today = ServiceFlyway.configure(before, user(), password()).load();
        today.validate();
        MigrateResult migrated = today.migrate();
        assertEquals(0, migrated.migrationsExecuted, "migrations run on the database of before");
        assertTrue(today.validateWithResult().validationSuccessful, "validates again");
        assertEquals(0, today.info().pending().length, "nothing pending");

        String fresh = database("platform_tenancy_fresh_" + schema);
        ServiceFlyway.configure(fresh, user(), password()).load().migrate();
        try (Connection old = connect(before); Connection made = connect(fresh)) {
            assertEquals(rowsBefore, tenancyRows(old, schema, tables), "the tenancy rows");
            assertTrue(rowsBefore.stream().anyMatch(r -> r.startsWith("key_1|own_1|hash_1|")), rowsBefore.toString());
            assertEquals(catalogBefore, catalog(old, schema), "the tables, columns and indexes, untouched");
            assertEquals(catalog(made, schema), catalog(old, schema), "the same schema as a new database");
            String history = "SELECT version, description, type, checksum, success FROM " + schema
                    + ".flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank";
            assertEquals(rows(made, history), rows(old, history), "the same history as a new database");
            List<String> taken = new ArrayList<>(List.of("1|tenancy|db/tenancy/V1__tenancy.sql"));
            String splitOff = ServiceFlyway.property("platform.tenancy.replaces.split-off");
            if (splitOff != null) {
                taken.add(splitOff.substring(1, splitOff.indexOf("__")) + "|" + splitOff.substring(splitOff.indexOf("__") + 2,
                        splitOff.length() - ".sql".length()) + "|db/migration/" + splitOff);
            }
            assertEquals(taken, rows(old, "SELECT version, description, script FROM " + schema
                    + ".flyway_schema_history WHERE version IN ('1', '1.1') ORDER BY installed_rank"));
        }
    }

    private static List<String> tenancyRows(Connection c, String schema, List<String> tables) throws SQLException {
        List<String> all = new ArrayList<>();
        for (String table : tables) {
            all.addAll(rows(c, "SELECT * FROM " + schema + "." + table + " ORDER BY 1"));
        }
        return all;
    }

    /** Columns (in any order: kyc's application columns come after the shared ones in a new database) and indexes. */
    private static List<String> catalog(Connection c, String schema) throws SQLException {
        List<String> all = new ArrayList<>(rows(c, "SELECT table_name, column_name, data_type, is_nullable, column_default"
                + " FROM information_schema.columns WHERE table_schema = '" + schema + "' ORDER BY 1, 2"));
        all.addAll(rows(c, "SELECT indexdef FROM pg_indexes WHERE schemaname = '" + schema + "' ORDER BY 1"));
        all.addAll(rows(c, "SELECT conrelid::regclass, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                + " WHERE connamespace = '" + schema + "'::regnamespace ORDER BY 1, 2"));
        return all;
    }

    /**
     * The service's migrations as the release before shipped them, in a directory per location: its former V1 from
     * the archive instead of the shared migration and the ones split off from that V1.
     */
    private static Path releasedLayout(String schema) throws IOException {
        Path root = Files.createTempDirectory("tenancy-before-");
        String former = ServiceFlyway.property("platform.tenancy.replaces.script");
        String splitOff = ServiceFlyway.property("platform.tenancy.replaces.split-off");
        for (String location : ServiceFlyway.locations()) {
            if (location.equals("db/tenancy")) {
                continue;
            }
            Path own = Path.of("src/main/resources", location);
            Path source = Files.isDirectory(own) ? own : Path.of("../service-support/src/main/resources", location);
            Path target = Files.createDirectories(root.resolve(location));
            try (var files = Files.list(source)) {
                for (Path file : files.toList()) {
                    if (splitOff == null || !List.of(splitOff.split(",")).contains(file.getFileName().toString())) {
                        Files.copy(file, target.resolve(file.getFileName()));
                    }
                }
            }
        }
        try (InputStream in = TenancyUpgradeContract.class.getResourceAsStream("/tenancy-upgrade/released-v1.zip");
             ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (entry.getName().equals(schema + "/" + former)) {
                    Files.copy(zip, root.resolve("db/migration").resolve(former));
                }
            }
        }
        assertTrue(Files.exists(root.resolve("db/migration").resolve(former)), former + " in released-v1.zip");
        return root;
    }

    private static String[] locations(Path released) {
        return ServiceFlyway.locations().stream().filter(l -> !l.equals("db/tenancy"))
                .map(l -> "filesystem:" + released.resolve(l)).toArray(String[]::new);
    }

    private static List<String> files(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private static String database(String name) throws SQLException {
        try (Connection admin = TestDatabase.connect(); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        }
        return OutboxMigrationCheck.withDatabase(TestDatabase.jdbcUrl(), name);
    }

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, user(), password());
    }

    private static String user() {
        return System.getProperty(TestDatabase.USER_PROPERTY);
    }

    private static String password() {
        return System.getProperty(TestDatabase.PASSWORD_PROPERTY);
    }
}
