package ht.platform.support.testing;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiles the Java client openapi-generator made from the service's stored /openapi.json (the build's
 * client-from-openapi execution writes it to target/generated-client): a spec a generator cannot use fails here.
 */
public final class GeneratedClient {

    private GeneratedClient() { }

    /** Compiles the client; answers the generated API class names, asserting each of {@code expectedApis} is among them. */
    public static List<String> assertCompiles(String... expectedApis) throws IOException {
        Path sources = Path.of("target/generated-client/src/main/java");
        assertTrue(Files.isDirectory(sources), "no generated client in " + sources.toAbsolutePath());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        Path out = Files.createDirectories(Path.of("target/generated-client-classes"));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, null)) {
            boolean ok = compiler.getTask(null, fm, diagnostics,
                    List.of("-d", out.toString(), "-classpath", System.getProperty("java.class.path"), "-proc:none", "-nowarn"),
                    null, fm.getJavaFileObjectsFromPaths(files)).call();
            assertTrue(ok, "the generated client does not compile: " + diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).limit(10).toList());
        }
        List<String> apis;
        try (Stream<Path> walk = Files.walk(sources)) {
            apis = walk.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("Api.java"))
                    .map(n -> n.substring(0, n.length() - 5)).sorted().toList();
        }
        assertTrue(!apis.isEmpty(), "no API class generated");
        for (String api : expectedApis) {
            assertTrue(apis.contains(api), api + " not generated; got " + apis);
        }
        return apis;
    }
}
