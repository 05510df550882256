package ht.platform.deploy;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On JDK 25+ (the aot-cache Maven profile): each service's build wrote target/quarkus-app/app.aot during its
 * integration tests (the training run). This starts each packaged service with {@code -XX:AOTCache=app.aot}, waits
 * until /q/health/ready answers 200, and checks in the JVM's own {@code -Xlog:aot} and {@code -Xlog:class+load}
 * output that the cache was opened and mapped and that the service's own classes (ht.platform.*) were loaded from it
 * ("source: shared objects file"), not merely that the flag was passed. Skipped on a JDK older than 25.
 * The service runs in its "test" profile (keys and tokens of the tests) against DB_JDBC_URL / DB_REACTIVE_URL when
 * set, otherwise the local platform_test database, like the services' own integration tests.
 */
class AotCacheIT {

    private static final Path ROOT = Path.of(System.getProperty("platform.repository.root", "..")).toAbsolutePath().normalize();

    @ParameterizedTest
    @ValueSource(strings = {"kyc-service", "checkout-service", "wallet-gateway"})
    void theServiceStartsFromItsAotCache(String service) throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 25, "the AOT cache needs JDK 25+");
        Path app = ROOT.resolve(service).resolve("target/quarkus-app");
        Path cache = app.resolve("app.aot");
        Assumptions.assumeTrue(Files.isDirectory(app), service + " is not packaged in this build");
        assertTrue(Files.isRegularFile(cache), cache + " missing: the integration tests of " + service
                + " (the training run) should have written it on JDK 25");

        Path log = Files.createTempFile("aot-" + service, ".log");
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:AOTCache=app.aot", "-XX:AOTMode=on", // on: the JVM refuses to start if the cache cannot be used
                "-Xlog:aot=info", "-Xlog:class+load=info",
                "-Dquarkus.profile=test", "-Dquarkus.http.port=" + port,
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-jar", "quarkus-run.jar"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(app.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putIfAbsent("DB_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/platform_test");
        pb.environment().putIfAbsent("DB_REACTIVE_URL", "postgresql://127.0.0.1:5432/platform_test");
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        Process process = pb.start();
        try {
            awaitReady(process, port, log);
        } finally {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.stream().anyMatch(l -> l.contains("[aot") && l.contains("Opened AOT cache app.aot")),
                "the JVM did not open the AOT cache; log: " + log);
        assertTrue(lines.stream().anyMatch(l -> l.contains("[aot") && l.contains("Using AOT-linked classes: true")),
                "the JVM did not use the AOT-linked classes; log: " + log);
        long appFromCache = count(lines.stream(), " ht.platform.", "source: shared objects file");
        long appElsewhere = count(lines.stream(), " ht.platform.", "source: jar:")
                + count(lines.stream(), " ht.platform.", "source: file:");
        assertTrue(appFromCache > 50, service + ": only " + appFromCache + " ht.platform classes came from the cache ("
                + appElsewhere + " from the jars); log: " + log);
        assertTrue(appFromCache > appElsewhere, service + ": more service classes came from the jars (" + appElsewhere
                + ") than from the cache (" + appFromCache + "); log: " + log);
        Files.deleteIfExists(log);
    }

    private static long count(Stream<String> lines, String what, String source) {
        return lines.filter(l -> l.contains("[class,load") && l.contains(what) && l.contains(source)).count();
    }

    private static void awaitReady(Process process, int port, Path log) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300); // a loaded 2-core machine
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("the service exited (" + process.exitValue() + ") before it was ready; log: " + log + "\n"
                        + tail(log));
            }
            try {
                HttpResponse<Void> r = client.send(ready, HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        fail("not ready within 300 s; log: " + log + "\n" + tail(log));
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
