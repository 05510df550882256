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
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static ht.platform.support.testing.OutboxMigrationCheck.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Databases meet today's migrations and then the release before's again (a rollback with migrate-at-start):
 * <ul>
 *   <li>one the takeover builds (2ec5af2..8e3dcd6) migrated, whose V1 history row names a shared
 *   {@code V1__tenancy.sql} (kyc: and a {@code V1.1__kyc.sql}), which the release before refuses: today's Flyway
 *   gives the row back (TenancyHistoryRepair), runs nothing, touches no table or row, and the release before
 *   validates it again;</li>
 *   <li>one the released migrations made: today's Flyway runs only its newer migrations, leaves the V1 row as it was,
 *   and the release before validates it.</li>
 * </ul>
 * The release before is its Flyway with the files deploy/released-migrations lists (unchanged since, as
 * MigrationRulesTest checks) and the repeatable ones; the takeover's own files are made again from the released V1
 * and the lines it did not have (tenancy-takeover/*.head.sql).
 */
public abstract class TenancyUpgradeContract {

    private static final Path MANIFEST = Path.of("../deploy/released-migrations");

    private final ServiceTerms terms;
    private final String ownerRow;

    /** @param ownerRow an INSERT of the owner {@code own_1} into the service's owner table, as the release before stores one */
    protected TenancyUpgradeContract(ServiceTerms terms, String ownerRow) {
        this.terms = terms;
        this.ownerRow = ownerRow;
    }

    @Test
    void aDatabaseTheTakeoverMigratedIsRepairedAndTheReleaseBeforeValidatesIt() throws Exception {
        String schema = schema();
        String taken = database("platform_tenancy_taken_" + schema);
        Path layout = takeoverLayout();
        Flyway.configure().dataSource(taken, user(), password()).schemas(schema).defaultSchema(schema).createSchemas(true)
                .placeholders(Map.of("owner", terms.owner(), "grants", terms.grantsField()))
                .locations(locations(layout, true)).load().migrate();
        asQuarkusRecords(taken, layout, true);
        fillTenancy(taken);
        List<String> rowsBefore = tenancyRows(taken);
        List<String> catalogBefore = catalog(taken);
        assertFalse(releaseBefore(taken).validateWithResult().validationSuccessful,
                "the release before refuses the taken-over V1 (the defect the repair mends)");

        Flyway today = ServiceFlyway.configure(taken, user(), password()).load();
        MigrateResult migrated = today.migrate();
        assertEquals(0, migrated.migrationsExecuted, "migrations run on the taken-over database");
        assertTrue(today.validateWithResult().validationSuccessful, "today validates it");

        String fresh = database("platform_tenancy_fresh_" + schema);
        ServiceFlyway.configure(fresh, user(), password()).load().migrate();
        assertEquals(rowsBefore, tenancyRows(taken), "the tenancy rows");
        assertEquals(catalogBefore, catalog(taken), "the tables, columns and indexes, untouched");
        assertEquals(catalog(fresh), catalog(taken), "the same schema as a new database");
        try (Connection old = connect(taken); Connection made = connect(fresh)) {
            assertEquals(rows(made, history()), rows(old, history()), "the same history as a new database");
            assertEquals(List.of("1|" + description(releasedV1()) + "|db/migration/" + releasedV1()),
                    rows(old, "SELECT version, description, script FROM " + schema + ".flyway_schema_history"
                            + " WHERE version IN ('1', '1.1') ORDER BY installed_rank"));
        }

        Flyway before = releaseBefore(taken);
        assertTrue(before.validateWithResult().validationSuccessful, "the release before validates it again");
        assertEquals(0, before.migrate().migrationsExecuted, "the release before migrates nothing");
        assertEquals(rowsBefore, tenancyRows(taken), "the tenancy rows, after the release before started");
    }

    @Test
    void aDatabaseOfTheReleasedMigrationsKeepsItsV1AndTheReleaseBeforeValidatesIt() throws Exception {
        String schema = schema();
        String released = database("platform_tenancy_released_" + schema);
        Path layout = releasedLayout();
        releaseBefore(released).migrate();
        asQuarkusRecords(released, layout, false);
        fillTenancy(released);
        List<String> rowsBefore = tenancyRows(released);
        String v1 = "SELECT version, description, script, checksum, installed_rank FROM " + schema
                + ".flyway_schema_history WHERE version = '1'";
        List<String> v1Before;
        try (Connection c = connect(released)) {
            v1Before = rows(c, v1);
        }

        Flyway today = ServiceFlyway.configure(released, user(), password()).load();
        assertEquals(todaysVersioned().size() - releasedVersioned().size(), today.migrate().migrationsExecuted,
                "only the migrations newer than the release before run");
        assertEquals(rowsBefore, asBefore(rowsBefore, tenancyRows(released)), "the tenancy rows");
        try (Connection c = connect(released)) {
            assertEquals(v1Before, rows(c, v1), "the V1 row as the release before wrote it");
        }
        Flyway before = releaseBefore(released);
        assertTrue(before.validateWithResult().validationSuccessful, "the release before validates the upgraded database");
        assertEquals(0, before.migrate().migrationsExecuted, "the release before migrates nothing");
    }

    // ------------------------------------------------------------------ the releases' Flyway

    /** The release before's Flyway on {@code url}: its migrations, Flyway's defaults (ignoring future ones). */
    private Flyway releaseBefore(String url) throws IOException {
        String schema = schema();
        return Flyway.configure().dataSource(url, user(), password()).schemas(schema).defaultSchema(schema)
                .createSchemas(true).locations(locations(releasedLayout(), false)).load();
    }

    /** The released versioned files of the service's locations (by the manifest) and today's repeatable ones. */
    private static Path releasedLayout() throws IOException {
        Set<String> released = releasedVersioned();
        return layout("tenancy-released-", file -> file.getFileName().toString().startsWith("R__")
                || released.contains(repositoryPath(file)));
    }

    /** Today's files, with the takeover's V1 (and kyc's V1.1) in place of the released V1. */
    private static Path takeoverLayout() throws IOException {
        String v1 = releasedV1();
        Path root = layout("tenancy-takeover-", file -> !file.getFileName().toString().equals(v1));
        Files.createDirectories(root.resolve("db/tenancy"));
        writeTakenOverV1(root.resolve("db/tenancy"));
        for (String splitOff : splitOff()) {
            writeSplitOff(splitOff, root.resolve("db/migration"));
        }
        return root;
    }

    private static Path layout(String prefix, java.util.function.Predicate<Path> keep) throws IOException {
        Path root = Files.createTempDirectory(prefix);
        for (String location : ServiceFlyway.locations()) {
            Path target = Files.createDirectories(root.resolve(location));
            try (var files = Files.list(source(location))) {
                for (Path file : files.filter(keep).toList()) {
                    Files.copy(file, target.resolve(file.getFileName()));
                }
            }
        }
        return root;
    }

    /**
     * The takeover's shared {@code V1__tenancy.sql}, byte for byte as it shipped: its own owner and key tables
     * ({@code tenancy-takeover/V1__tenancy.head.sql}), then the idempotency_keys table as every service's released V1
     * has it, in the placeholder schema.
     */
    private static void writeTakenOverV1(Path dir) throws IOException {
        List<String> v1 = Files.readAllLines(source("db/migration").resolve(releasedV1()));
        int from = lineStarting(v1, "CREATE TABLE " + schema() + ".idempotency_keys");
        int to = lineStarting(v1, "CREATE INDEX idempotency_keys_created");
        String idempotency = String.join("\n", v1.subList(from, to + 1)).replace(schema() + ".", "${flyway:defaultSchema}.");
        Files.writeString(dir.resolve("V1__tenancy.sql"), resource("V1__tenancy.head.sql") + idempotency + "\n");
    }

    /**
     * A file the takeover split off the released V1 (kyc's V1.1), byte for byte as it shipped: its own first lines
     * ({@code tenancy-takeover/<name>.head.sql}), then the released V1 after its tenancy tables (the last of them the
     * idempotency_keys index), which the split moved over unchanged.
     */
    private static void writeSplitOff(String file, Path dir) throws IOException {
        List<String> v1 = Files.readAllLines(source("db/migration").resolve(releasedV1()));
        List<String> rest = v1.subList(lineStarting(v1, "CREATE INDEX idempotency_keys_created") + 1, v1.size());
        Files.writeString(dir.resolve(file), resource(file.replace(".sql", ".head.sql")) + String.join("\n", rest) + "\n");
    }

    private static int lineStarting(List<String> lines, String start) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start)) {
                return i;
            }
        }
        throw new AssertionError("no line starting " + start + " in " + releasedV1());
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = TenancyUpgradeContract.class.getResourceAsStream("/tenancy-takeover/" + file)) {
            assertTrue(in != null, file + " in tenancy-takeover/");
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static String[] locations(Path layout, boolean withTenancy) {
        List<String> locations = new ArrayList<>(ServiceFlyway.locations());
        if (withTenancy) {
            locations.add(1, "db/tenancy");
        }
        return locations.stream().map(l -> "filesystem:" + layout.resolve(l)).toArray(String[]::new);
    }

    /** Scripts as Quarkus records them, with their classpath location ({@code db/migration/V1__kyc.sql}). */
    private void asQuarkusRecords(String url, Path layout, boolean withTenancy) throws Exception {
        List<String> dirs = new ArrayList<>(ServiceFlyway.locations());
        if (withTenancy) {
            dirs.add("db/tenancy");
        }
        try (Connection c = connect(url); Statement s = c.createStatement()) {
            for (String dir : dirs) {
                String files = files(layout.resolve(dir)).stream().collect(Collectors.joining("','", "'", "'"));
                s.execute("UPDATE " + schema() + ".flyway_schema_history SET script = '" + dir + "/' || script"
                        + " WHERE script IN (" + files + ")");
            }
        }
    }

    // ------------------------------------------------------------------ the service's files

    private static Path source(String location) {
        Path own = Path.of("src/main/resources", location);
        return Files.isDirectory(own) ? own : Path.of("../service-support/src/main/resources", location);
    }

    /** {@code file}'s path from the repository root, as deploy/released-migrations names it. */
    private static String repositoryPath(Path file) {
        return Path.of("..").toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString()
                .replace('\\', '/');
    }

    private static Set<String> releasedVersioned() throws IOException {
        return Files.readAllLines(MANIFEST).stream().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.strip().split(" ", 2)[1]).filter(p -> todaysFiles().contains(p)).collect(Collectors.toSet());
    }

    private static Set<String> todaysVersioned() {
        return todaysFiles().stream().filter(p -> p.substring(p.lastIndexOf('/') + 1).startsWith("V")).collect(Collectors.toSet());
    }

    private static Set<String> todaysFiles() {
        try {
            Set<String> all = new java.util.TreeSet<>();
            for (String location : ServiceFlyway.locations()) {
                try (var files = Files.list(source(location))) {
                    files.forEach(f -> all.add(repositoryPath(f)));
                }
            }
            return all;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String releasedV1() {
        return ServiceFlyway.property("platform.tenancy.released-v1.script");
    }

    private static List<String> splitOff() {
        String value = ServiceFlyway.property("platform.tenancy.released-v1.taken-over-split-off");
        return value == null ? List.of() : List.of(value.split(","));
    }

    private static String description(String file) {
        return file.substring(file.indexOf("__") + 2, file.length() - ".sql".length()).replace('_', ' ');
    }

    private static String schema() {
        return ServiceFlyway.property("quarkus.flyway.migrations.default-schema");
    }

    // ------------------------------------------------------------------ the database

    private void fillTenancy(String url) throws SQLException {
        try (Connection c = connect(url); Statement s = c.createStatement()) {
            s.execute(ownerRow);
            s.execute("INSERT INTO " + schema() + ".api_keys (id, " + terms.owner() + "_id, key_hash, key_hint, mode, "
                    + terms.grantsField()
                    + ", created_at) VALUES ('key_1', 'own_1', 'hash_1', 'test_...abcd', 'test', '{a:read,b:write}',"
                    + " '2026-01-02T03:04:05Z')");
            s.execute("INSERT INTO " + schema() + ".idempotency_keys VALUES ('own_1', 'test', 'idem_1', 'rh', 201, '{}',"
                    + " '2026-01-02T03:04:06Z')");
        }
    }

    /**
     * The rows as the release before saw them: a later migration may add columns (expand only), which start empty; the
     * columns the release before had keep their values.
     */
    private static List<String> asBefore(List<String> before, List<String> after) {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            String row = after.get(i);
            int fields = i < before.size() ? before.get(i).split("\\|", -1).length : Integer.MAX_VALUE;
            String[] parts = row.split("\\|", -1);
            if (parts.length > fields) {
                for (int f = fields; f < parts.length; f++) {
                    assertEquals("null", parts[f], "a column added since the release before starts empty: " + row);
                }
                row = String.join("|", java.util.Arrays.copyOf(parts, fields));
            }
            seen.add(row);
        }
        return seen;
    }

    private List<String> tenancyRows(String url) throws SQLException {
        List<String> all = new ArrayList<>();
        try (Connection c = connect(url)) {
            for (String table : List.of(terms.owner() + "s", "api_keys", "idempotency_keys")) {
                all.addAll(rows(c, "SELECT * FROM " + schema() + "." + table + " ORDER BY 1"));
            }
        }
        assertTrue(all.stream().anyMatch(r -> r.startsWith("key_1|own_1|hash_1|")), all.toString());
        return all;
    }

    private static String history() {
        return "SELECT version, description, type, checksum, success FROM " + schema()
                + ".flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank";
    }

    /** Columns (in any order: the takeover put kyc's application columns after the shared ones) and indexes. */
    private static List<String> catalog(String url) throws SQLException {
        String schema = schema();
        try (Connection c = connect(url)) {
            List<String> all = new ArrayList<>(rows(c, "SELECT table_name, column_name, data_type, is_nullable, column_default"
                    + " FROM information_schema.columns WHERE table_schema = '" + schema + "' ORDER BY 1, 2"));
            all.addAll(rows(c, "SELECT indexdef FROM pg_indexes WHERE schemaname = '" + schema + "' ORDER BY 1"));
            all.addAll(rows(c, "SELECT conrelid::regclass, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                    + " WHERE connamespace = '" + schema + "'::regnamespace ORDER BY 1, 2"));
            return all;
        }
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
