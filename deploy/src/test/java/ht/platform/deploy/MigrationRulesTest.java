package ht.platform.deploy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository's migrations follow expand/contract (MigrationRules, docs/deployment.md) against the migrations of
 * the release before (deploy/released-migrations); the rule's own cases. When a release is cut, the manifest is
 * recorded from that release's checkout: {@code -Dmigrations.record=<its root>} (docs/deployment.md, Releasing).
 */
class MigrationRulesTest {

    static final Path ROOT = ManifestConsistencyTest.ROOT;
    static final Path MANIFEST = ROOT.resolve("deploy/released-migrations");
    static final Path PREVIOUS = ROOT.resolve("deploy/previous-release");

    /** {@code -Dmigrations.record=<a checkout of the release>}: the manifest is written from it first. */
    @BeforeAll
    static void recordWhenAsked() throws IOException {
        String record = System.getProperty("migrations.record");
        if (record != null && !record.isBlank()) {
            List<String> lines = new ArrayList<>(List.of(
                    "# The versioned migrations of the release in deploy/previous-release, with Flyway's checksum of each.",
                    "# A release validates these; they never change (MigrationRulesTest). Recorded with",
                    "# ./mvnw -pl deploy -am verify -Dtest=MigrationRulesTest -Dmigrations.record=<that release's checkout>"));
            lines.addAll(MigrationRules.manifest(MigrationRules.migrations(Path.of(record).toAbsolutePath())));
            Files.write(MANIFEST, lines, StandardCharsets.UTF_8);
        }
    }

    @Test
    void theMigrationsKeepTheReleaseBeforeWorking() throws IOException {
        Map<String, Integer> released = MigrationRules.readManifest(Files.readAllLines(MANIFEST));
        assertTrue(released.size() > 10, "deploy/released-migrations lists the released migrations");
        assertEquals(List.of(), MigrationRules.problems(ROOT, released));
    }

    /** Where the git history is at hand: the manifest is the previous release's migrations, file for file. */
    @Test
    void theManifestIsThePreviousRelease() throws Exception {
        String commit = Files.readAllLines(PREVIOUS).get(0).strip();
        Assumptions.assumeTrue(git("cat-file", "-e", commit + "^{commit}").exitCode == 0, "no git history here");
        Set<String> files = new TreeSet<>();
        for (String path : git("ls-tree", "-r", "--name-only", commit).out.split("\n")) {
            if (path.matches("[^/]+/src/main/resources/db/.*/V[^/]*__[^/]*\\.sql")) {
                files.add(path);
            }
        }
        Map<String, Integer> released = MigrationRules.readManifest(Files.readAllLines(MANIFEST));
        assertEquals(files, released.keySet(), "the manifest's files are " + commit + "'s");
        Path tmp = Files.createTempFile("released-", ".sql");
        try {
            for (String path : files) {
                Files.writeString(tmp, git("show", commit + ":" + path).out);
                assertEquals(released.get(path), MigrationRules.checksum(tmp), path + " as " + commit + " has it");
            }
        } finally {
            Files.delete(tmp);
        }
    }

    // ------------------------------------------------------------------ the rule's own cases

    private static final String V1 = "CREATE TABLE s.owners (id text PRIMARY KEY, name text NOT NULL);\n";

    private static Map<String, Integer> released(Path root) throws IOException {
        write(root, "V1__owners.sql", V1);
        write(root, "V2__keys.sql", "CREATE TABLE s.keys (id text PRIMARY KEY, owner_id text NOT NULL);\n");
        write(root, "R__views.sql", "CREATE TABLE IF NOT EXISTS s.logs (seq bigint);\n");
        return MigrationRules.readManifest(MigrationRules.manifest(MigrationRules.migrations(root)));
    }

    private static void write(Path root, String file, String sql) throws IOException {
        Path dir = Files.createDirectories(root.resolve("svc/src/main/resources/db/migration"));
        Files.writeString(dir.resolve(file), sql);
    }

    /** The problems of the released migrations and {@code file} added with {@code sql}. */
    private static List<String> problemsWith(Path root, String file, String sql) throws IOException {
        Map<String, Integer> released = released(root);
        write(root, file, sql);
        return MigrationRules.problems(root, released);
    }

    /** The released migrations and {@code file} added with {@code sql} have one problem, which says all of {@code says}. */
    private static void assertOneProblem(Path root, String file, String sql, String... says) throws IOException {
        List<String> problems = problemsWith(root, file, sql);
        assertEquals(1, problems.size(), problems.toString());
        for (String part : says) {
            assertTrue(problems.get(0).contains(part), problems.get(0));
        }
    }

    @Test
    void theReleasedOnesUnchangedPass(@TempDir Path root) throws IOException {
        assertEquals(List.of(), MigrationRules.problems(root, released(root)));
    }

    @Test
    void aRewrittenOrMissingReleasedMigrationFails(@TempDir Path root) throws IOException {
        Map<String, Integer> released = released(root);
        write(root, "V1__owners.sql", V1 + "ALTER TABLE s.owners ADD COLUMN note text;\n");
        Files.delete(root.resolve("svc/src/main/resources/db/migration/V2__keys.sql"));
        List<String> problems = MigrationRules.problems(root, released);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("V1__owners.sql: a released migration changed"), problems.get(0));
        assertTrue(problems.get(1).contains("V2__keys.sql: a released migration is gone"), problems.get(1));
    }

    @Test
    void aMigrationOlderThanTheReleasedOnesFails(@TempDir Path root) throws IOException {
        assertOneProblem(root, "V1.1__owner_notes.sql", "ALTER TABLE s.owners ADD COLUMN note text;\n",
                "is not newer than the released ones (newest 2)");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "ALTER TABLE s.owners ADD COLUMN note text;",
            "ALTER TABLE s.owners ADD COLUMN kind text NOT NULL DEFAULT 'shop';",
            "CREATE TABLE s.notes (id text PRIMARY KEY, owner_id text NOT NULL);\nALTER TABLE s.notes ADD COLUMN at timestamptz NOT NULL;",
            "CREATE INDEX owners_name ON s.owners (name);",
            "ALTER TABLE s.owners ALTER COLUMN name DROP NOT NULL;",
            "-- contract step: drops s.owners.legacy, unused since release 891cc18\nALTER TABLE s.owners DROP COLUMN legacy;",
    })
    void expandStepsPass(String sql, @TempDir Path root) throws IOException {
        assertEquals(List.of(), problemsWith(root, "V3__next.sql", sql + "\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "ALTER TABLE s.owners DROP COLUMN name;",
            "ALTER TABLE s.owners DROP name;",
            "DROP TABLE s.keys;",
            "ALTER TABLE s.owners RENAME COLUMN name TO title;",
            "ALTER TABLE s.keys RENAME TO secret_keys;",
            "ALTER TABLE s.owners ALTER COLUMN name SET NOT NULL;",
            "ALTER TABLE s.owners ADD COLUMN kind text NOT NULL;",
            "ALTER TABLE s.owners ADD COLUMN note text, ADD COLUMN kind text NOT NULL;",
            "ALTER TABLE s.owners ALTER COLUMN name TYPE varchar(40);",
            "ALTER TABLE s.keys ADD CONSTRAINT keys_owner FOREIGN KEY (owner_id) REFERENCES s.owners (id) NOT VALID;",
            "ALTER TABLE s.owners DROP CONSTRAINT owners_pkey;",
            "-- drops s.owners.name, unused since release 891cc18 (not the marker)\nALTER TABLE s.owners DROP COLUMN name;",
    })
    void aContractStepInTheSameReleaseFails(String sql, @TempDir Path root) throws IOException {
        assertOneProblem(root, "V3__next.sql", sql + "\n", "V3__next.sql: ", "in the release that stops using it");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "CREATE TABLE s.logs (seq bigint);",
            "ALTER TABLE s.logs ADD COLUMN body text;",
            "CREATE TABLE IF NOT EXISTS s.logs (seq bigint);\nALTER TABLE s.logs DROP COLUMN IF EXISTS body;",
            "CREATE OR REPLACE VIEW s.v AS SELECT 1;",
            "CREATE VIEW s.v AS SELECT 1;\nALTER VIEW s.v RENAME TO w;",
    })
    void aRepeatableMigrationThatIsNotAdditiveFails(String sql, @TempDir Path root) throws IOException {
        assertOneProblem(root, "R__views.sql", sql + "\n", "R__views.sql: ");
    }

    private record Run(int exitCode, String out) { }

    private static Run git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", ROOT.toString()));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException noGit) {
            return new Run(-1, "");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor(60, TimeUnit.SECONDS) ? new Run(p.exitValue(), out) : new Run(-1, out);
    }
}
