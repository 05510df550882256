package ht.platform.support;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packages of service-support and of the two modules below it (service-support-outbox, service-support-edge)
 * stand in floors: no package reaches back to one that reaches it, directly (a two-way tie) or through others. Read
 * from the source, so that an import, a static import, a fully qualified name and a constant the compiler inlines all
 * count. Between the modules the build itself refuses a tie; this test also refuses one inside a module.
 */
class PackageTiesTest {

    private static final String BASE = "ht.platform.support";
    private static final List<Path> SOURCES = Stream.of(".", "../service-support-outbox", "../service-support-edge")
            .map(module -> Path.of(module, "src/main/java").resolve(Path.of("", BASE.split("\\.")))).toList();
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile(Pattern.quote(BASE) + "\\.([a-z_]\\w*)");

    @Test
    void noPackageReachesBackToOneThatReachesIt() throws IOException {
        Map<String, String> sources = new TreeMap<>();
        for (Path root : SOURCES) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> sources.put(root.relativize(f).toString(), read(f)));
            }
        }
        assertTrue(sources.size() > 100, "service-support's sources were not found under " + SOURCES);
        List<String> loops = loops(arrows(sources));
        assertEquals(List.of(), loops, "packages of service-support that reach each other (move a type to where both"
                + " sides can see it, or invert the dependency)");
    }

    @Test
    void aTieBehindAFullyQualifiedNameIsFound() {
        Map<String, String> sources = Map.of(
                "a/A.java", "package ht.platform.support.a;\nimport ht.platform.support.b.B;\nclass A { B b; }",
                "b/B.java", "package ht.platform.support.b;\n// ht.platform.support.c is only named in a comment\n"
                        + "class B { String s = \"ht.platform.support.c\"; void f() { ht.platform.support.a.A.go(); } }",
                "c/C.java", "package ht.platform.support.c;\nimport static ht.platform.support.b.B.f;\nclass C { }");
        assertEquals(List.of("a ⇄ b (a -> b: a/A.java; b -> a: b/B.java)"), loops(arrows(sources)));
    }

    /** Package -> the packages it names, each with the files that name it. */
    static Map<String, Map<String, Set<String>>> arrows(Map<String, String> sources) {
        Map<String, Map<String, Set<String>>> arrows = new TreeMap<>();
        sources.forEach((file, source) -> {
            String code = withoutCommentsAndLiterals(source);
            Matcher declared = PACKAGE.matcher(code);
            assertTrue(declared.find(), file + " declares no package");
            String from = slice(declared.group(1));
            Map<String, Set<String>> out = arrows.computeIfAbsent(from, p -> new TreeMap<>());
            Matcher named = REFERENCE.matcher(code.substring(declared.end()));
            while (named.find()) {
                if (!named.group(1).equals(from)) {
                    out.computeIfAbsent(named.group(1), p -> new TreeSet<>()).add(file);
                }
            }
        });
        return arrows;
    }

    /** Every set of packages that reach each other, with each arrow inside it and the files behind the arrow. */
    static List<String> loops(Map<String, Map<String, Set<String>>> arrows) {
        List<String> loops = new ArrayList<>();
        for (Set<String> component : components(arrows)) {
            if (component.size() < 2) {
                continue;
            }
            List<String> inside = new ArrayList<>();
            for (String from : component) {
                arrows.getOrDefault(from, Map.of()).forEach((to, files) -> {
                    if (component.contains(to)) {
                        inside.add(from + " -> " + to + ": " + String.join(", ", files));
                    }
                });
            }
            loops.add(String.join(" ⇄ ", component) + " (" + String.join("; ", inside) + ")");
        }
        return loops;
    }

    /** Tarjan's strongly connected components. */
    private static List<Set<String>> components(Map<String, Map<String, Set<String>>> arrows) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> found = new ArrayList<>();
        for (String p : arrows.keySet()) {
            if (!index.containsKey(p)) {
                connect(p, arrows, index, low, stack, found);
            }
        }
        return found;
    }

    private static void connect(String p, Map<String, Map<String, Set<String>>> arrows, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<Set<String>> found) {
        index.put(p, index.size());
        low.put(p, index.get(p));
        stack.push(p);
        for (String q : arrows.getOrDefault(p, Map.of()).keySet()) {
            if (!index.containsKey(q)) {
                connect(q, arrows, index, low, stack, found);
                low.put(p, Math.min(low.get(p), low.get(q)));
            } else if (stack.contains(q)) {
                low.put(p, Math.min(low.get(p), index.get(q)));
            }
        }
        if (low.get(p).equals(index.get(p))) {
            Set<String> component = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                component.add(q);
            } while (!q.equals(p));
            found.add(component);
        }
    }

    private static String slice(String pkg) {
        return pkg.equals(BASE) ? "(root)" : pkg.substring(BASE.length() + 1).split("\\.")[0];
    }

    /** The code with comments, strings, text blocks and characters blanked out: a name there ties nothing. */
    static String withoutCommentsAndLiterals(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                int line = source.indexOf('\n', i);
                i = line < 0 ? source.length() : line;
            } else if (source.startsWith("/*", i)) {
                i = endOf(source, "*/", i + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                i = endOf(source, "\"\"\"", i + 3);
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i++);
                while (i < source.length() && source.charAt(i) != quote) {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            out.append(' ');
        }
        return out.toString();
    }

    private static int endOf(String source, String end, int from) {
        int at = source.indexOf(end, from);
        return at < 0 ? source.length() : at + end.length();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
