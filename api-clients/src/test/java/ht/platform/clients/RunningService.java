package ht.platform.clients;

import ht.platform.support.testing.PlatformTestEnvironment;
import ht.platform.support.testing.ServiceTerms;
import ht.platform.support.testing.Waiting;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.File;
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
import java.util.Map;

/**
 * One packaged service ({@code <module>/target/quarkus-app/quarkus-run.jar}) started as its integration tests start it:
 * the "test" profile (test operator token, private webhook targets allowed), the test database the services' tests
 * use ({@link PlatformTestEnvironment}), a free port, and public-base-url naming that port. Its log is
 * {@code target/<module>.log}.
 */
public final class RunningService implements AutoCloseable {

    public static final String ADMIN_TOKEN = "test-admin-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final Process process;
    private final String base;
    private final Path log;

    private RunningService(Process process, String base, Path log) {
        this.process = process;
        this.base = base;
        this.log = log;
    }

    public static RunningService start(String module) throws IOException, InterruptedException {
        Path jar = Path.of("..", module, "target", "quarkus-app", "quarkus-run.jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package " + module + " first (mvn verify builds it before this module)");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String base = "http://localhost:" + port;
        Path log = Path.of("target", module + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.profile=test", "-Dquarkus.http.port=" + port, "-Dpublic-base-url=" + base,
                "-Dquarkus.log.file.path=" + log.resolveSibling(module + "-app.log")));
        for (Map.Entry<String, String> setting : new PlatformTestEnvironment().start().entrySet()) {
            command.add("-D" + setting.getKey() + "=" + setting.getValue());
        }
        command.addAll(List.of("-jar", jar.toString()));
        Process process = new ProcessBuilder(command).directory(jar.getParent().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RunningService service = new RunningService(process, base, log);
        try {
            Waiting.await(module + " ready", Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(module + " ended with " + process.exitValue() + " before it was ready; its log: " + log);
                }
                try {
                    return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException notYet) {
                    return false; // not listening yet
                }
            });
            return service;
        } catch (ConditionTimeoutException e) {
            service.close();
            throw new IllegalStateException(module + " was not ready within 4 minutes; its log: " + log);
        }
    }

    /** The service's public origin, e.g. {@code http://localhost:41234}: the generated clients' base path. */
    public String base() {
        return base;
    }

    public Path log() {
        return log;
    }

    /** An operator API call (not in the public document): the JSON answer, which must have {@code expected} status. */
    public String operator(String method, String path, String json, int expected) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + " -> " + answer.statusCode() + " " + answer.body());
        }
        return answer.body();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** The service started before a test class's tests and stopped after them ({@code @RegisterExtension static}). */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private final ServiceTerms terms;
        private RunningService service;

        public PerClass(ServiceTerms terms) {
            this.terms = terms;
        }

        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            service = start(terms.module());
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (service != null) {
                service.close();
            }
        }

        public String base() {
            return service.base();
        }

        public String operator(String method, String path, String json, int expected) throws IOException, InterruptedException {
            return service.operator(method, path, json, expected);
        }

        /** A new owner named {@code name} and its test key. */
        public String testKey(String name) throws IOException, InterruptedException {
            String owner = Tours.json(operator("POST", terms.ownersPath(), terms.ownerBody("\"" + name + "\""), 201)).path("id").asText();
            return Tours.json(operator("POST", terms.ownersPath() + "/" + owner + "/keys", "{\"mode\":\"test\"}", 201))
                    .path("key").asText();
        }
    }
}
