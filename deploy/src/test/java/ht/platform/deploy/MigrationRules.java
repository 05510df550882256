package ht.platform.deploy;

import org.flywaydb.core.internal.resolver.ChecksumCalculator;
import org.flywaydb.core.internal.resource.filesystem.FileSystemResource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Expand/contract, checked on the repository's migrations (docs/deployment.md): the migrations a release shipped
 * (deploy/released-migrations, Flyway checksums) stay as they are, and a migration newer than them keeps the release
 * before working: no drop, rename, type change, new NOT NULL or new constraint on what that release uses, unless the
 * file says it is the contract step of a later release and which release stopped using what it changes.
 * Repeatable migrations are re-applied by either release, so they never hold a contract step at all.
 */
final class MigrationRules {

    /** The marker of a contract step: {@code -- contract step: drops x.y, unused since release 1a2b3c4}. */
    static final Pattern MARKER = Pattern.compile("(?m)^--\\s*contract step:\\s*\\S.*?,?\\s+unused since release\\s+\\S+\\s*$");
    private static final Pattern VERSIONED = Pattern.compile("V([0-9]+(?:[._][0-9]+)*)__.+\\.sql");
    private static final Pattern CREATED_TABLE = Pattern.compile("\\bCREATE\\s+(?:UNLOGGED\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\S+?)\\s*\\(");
    private static final Pattern ALTERED_TABLE = Pattern.compile("^ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?(?:ONLY\\s+)?(\\S+)\\s+(.*)$", Pattern.DOTALL);
    private static final Pattern DROPPED_TABLE = Pattern.compile("^DROP\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?(\\S+)");
    /** Every DROP but the ones that only loosen or re-index: DROP NOT NULL, DROP DEFAULT, DROP INDEX. */
    private static final Pattern DROP = Pattern.compile("\\bDROP\\s+(?!NOT\\s+NULL\\b|DEFAULT\\b|INDEX\\b)");
    private static final Pattern RENAME = Pattern.compile("\\bRENAME\\b");
    private static final Pattern SET_NOT_NULL = Pattern.compile("\\bSET\\s+NOT\\s+NULL\\b");
    private static final Pattern TYPE_CHANGE = Pattern.compile("\\bALTER\\s+(?:COLUMN\\s+)?\\S+\\s+(?:SET\\s+DATA\\s+)?TYPE\\b");
    private static final Pattern ADD_CONSTRAINT = Pattern.compile("\\bADD\\s+(?:CONSTRAINT|PRIMARY\\s+KEY|UNIQUE|CHECK|FOREIGN\\s+KEY|EXCLUDE)\\b");
    private static final Pattern ADD_COLUMN = Pattern.compile("^ADD\\s+(?!CONSTRAINT\\b)");

    /** A migration file: its path from the repository root and Flyway's checksum of it. */
    record Migration(String path, int checksum) { }

    private MigrationRules() { }

    /** Every migration under {@code <module>/src/main/resources/db/} of the repository at {@code root}, by path. */
    static Map<String, Integer> migrations(Path root) throws IOException {
        Map<String, Integer> all = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                Path db = module.resolve("src/main/resources/db");
                if (!Files.isDirectory(db)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(db)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
                        all.put(root.relativize(file).toString().replace('\\', '/'), checksum(file));
                    }
                }
            }
        }
        return all;
    }

    /** Flyway's own checksum (what a release compares with the history row when it validates). */
    static int checksum(Path file) {
        return ChecksumCalculator.calculate(new FileSystemResource(null, file.toString(), StandardCharsets.UTF_8, false));
    }

    /** The versioned migrations of {@code migrations} as the manifest lists them: "checksum path" lines. */
    static List<String> manifest(Map<String, Integer> migrations) {
        return migrations.entrySet().stream().filter(e -> versioned(e.getKey()))
                .map(e -> e.getValue() + " " + e.getKey()).toList();
    }

    static Map<String, Integer> readManifest(List<String> lines) {
        Map<String, Integer> released = new TreeMap<>();
        for (String line : lines) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.strip().split(" ", 2);
                released.put(parts[1], Integer.valueOf(parts[0]));
            }
        }
        return released;
    }

    /** What breaks the rule in the repository at {@code root} against the released migrations; empty when none. */
    static List<String> problems(Path root, Map<String, Integer> released) throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> now = migrations(root);
        released.forEach((path, checksum) -> {
            Integer current = now.get(path);
            if (current == null) {
                problems.add(path + ": a released migration is gone (a release validates it; keep it where it is)");
            } else if (current.intValue() != checksum) {
                problems.add(path + ": a released migration changed (Flyway checksum " + checksum + " -> " + current
                        + "; the release before fails with 'Migration checksum mismatch'): add a new migration instead");
            }
        });
        List<Integer> newestReleased = released.keySet().stream().map(MigrationRules::version)
                .max(MigrationRules::compare).orElse(List.of());
        Map<String, String> fresh = new TreeMap<>();
        for (String path : now.keySet()) {
            if (!released.containsKey(path)) {
                if (versioned(path) && compare(version(path), newestReleased) <= 0) {
                    problems.add(path + ": version " + fileName(path).substring(1, fileName(path).indexOf("__"))
                            + " is not newer than the released ones (newest " + join(newestReleased) + ")");
                }
                if (versioned(path)) {
                    fresh.put(path, Files.readString(root.resolve(path)));
                }
            }
        }
        Set<String> newTables = new HashSet<>();
        fresh.values().forEach(sql -> newTables.addAll(createdTables(statements(sql))));
        fresh.forEach((path, sql) -> {
            if (!MARKER.matcher(sql).find()) {
                contractSteps(statements(sql), newTables).forEach(step -> problems.add(path + ": " + step
                        + " in the release that stops using it (expand now, contract in a later release, marked"
                        + " '-- contract step: <what>, unused since release <commit>')"));
            }
        });
        for (String path : now.keySet()) {
            if (fileName(path).startsWith("R__")) {
                List<String> statements = statements(Files.readString(root.resolve(path)));
                contractSteps(statements, Set.of()).forEach(step -> problems.add(path + ": " + step
                        + " in a repeatable migration (the release before re-applies its own copy on rollback)"));
                statements.stream().filter(s -> s.startsWith("CREATE OR REPLACE "))
                        .forEach(s -> problems.add(path + ": replaces a definition (" + abbreviate(s) + ") in a repeatable"
                                + " migration (the release before would put its own back on rollback)"));
                statements.stream().filter(s -> s.matches("^(CREATE\\s+(UNIQUE\\s+)?(INDEX|TABLE)|ALTER\\s+TABLE.*\\bADD\\s+COLUMN)\\b.*")
                                && !s.matches("(?s).*\\bIF\\s+NOT\\s+EXISTS\\b.*"))
                        .forEach(s -> problems.add(path + ": not idempotent (IF NOT EXISTS): " + abbreviate(s)));
            }
        }
        return problems;
    }

    /** The contract steps among {@code statements} (upper case, one each); tables of this release are exempt. */
    static List<String> contractSteps(List<String> statements, Set<String> newTables) {
        List<String> steps = new ArrayList<>();
        for (String s : statements) {
            Matcher dropped = DROPPED_TABLE.matcher(s);
            if (dropped.find() && newTables.contains(dropped.group(1))) {
                continue;
            }
            Matcher altered = ALTERED_TABLE.matcher(s);
            if (altered.matches() && newTables.contains(altered.group(1))) {
                continue;
            }
            if (DROP.matcher(s).find()) {
                steps.add("drops (" + abbreviate(s) + ")");
            }
            if (RENAME.matcher(s).find()) {
                steps.add("renames (" + abbreviate(s) + ")");
            }
            if (SET_NOT_NULL.matcher(s).find()) {
                steps.add("sets NOT NULL (" + abbreviate(s) + ")");
            }
            if (TYPE_CHANGE.matcher(s).find()) {
                steps.add("changes a column's type (" + abbreviate(s) + ")");
            }
            if (altered.matches() && ADD_CONSTRAINT.matcher(altered.group(2)).find()) {
                steps.add("adds a constraint to an existing table (" + abbreviate(s) + ")");
            }
            if (altered.matches()) {
                for (String clause : topLevel(altered.group(2))) {
                    if (ADD_COLUMN.matcher(clause).find() && clause.matches("(?s).*\\bNOT\\s+NULL\\b.*")
                            && !clause.matches("(?s).*\\bDEFAULT\\b.*")) {
                        steps.add("adds a NOT NULL column without a default (" + abbreviate(clause) + ")");
                    }
                }
            }
        }
        return steps;
    }

    private static Set<String> createdTables(List<String> statements) {
        Set<String> tables = new HashSet<>();
        for (String s : statements) {
            Matcher m = CREATED_TABLE.matcher(s);
            if (m.find()) {
                tables.add(m.group(1));
            }
        }
        return tables;
    }

    /** The statements of {@code sql}, comments removed, whitespace folded, upper case. */
    static List<String> statements(String sql) {
        String plain = sql.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ");
        return Arrays.stream(plain.split(";")).map(s -> s.replaceAll("\\s+", " ").strip().toUpperCase())
                .filter(s -> !s.isEmpty()).toList();
    }

    /** {@code body} split at its commas outside parentheses. */
    private static List<String> topLevel(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                parts.add(body.substring(from, i).strip());
                from = i + 1;
            }
        }
        parts.add(body.substring(from).strip());
        return parts;
    }

    private static boolean versioned(String path) {
        return VERSIONED.matcher(fileName(path)).matches();
    }

    private static List<Integer> version(String path) {
        Matcher m = VERSIONED.matcher(fileName(path));
        return m.matches() ? Arrays.stream(m.group(1).split("[._]")).map(Integer::valueOf).toList() : List.of();
    }

    private static int compare(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            int d = Integer.compare(i < a.size() ? a.get(i) : 0, i < b.size() ? b.get(i) : 0);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    private static String join(List<Integer> version) {
        return String.join(".", version.stream().map(String::valueOf).toList());
    }

    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String abbreviate(String s) {
        return s.length() <= 100 ? s : s.substring(0, 97) + "...";
    }
}
