package ht.platform.support.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 8: a Postgres restart must never answer 500. The packaged application (target/quarkus-app) runs
 * against a PostgreSQL 15 of this test's own (dev-postgres' zonky binaries, its own directory and port: never the
 * machine's shared server), creations run from several clients, and the server is restarted under them (a fast
 * shutdown: every connection terminated with 57P01, then refused, then "starting up"). Every answer must be 2xx or 503
 * with {@code Retry-After}; creations succeed again after the restart. A service's {@code *IT} subclass says how to
 * make a tenant and what one creation is.
 */
public abstract class PostgresRestartContract {

    protected static final String ADMIN = "Bearer test-admin-token";

    /** One creation request of the service: path, headers (a fresh Idempotency-Key each time) and JSON body. */
    public record Creation(String path, Map<String, String> headers, String body) { }

    private final ServiceTerms terms;
    private final String creationPath;
    private final java.util.function.Supplier<String> creationBody;

    /**
     * @param creationPath the public API path that creates the service's main object ({@code /api/v1/payments})
     * @param creationBody the JSON body of one creation (a fresh reference each time)
     */
    protected PostgresRestartContract(ServiceTerms terms, String creationPath, java.util.function.Supplier<String> creationBody) {
        this.terms = terms;
        this.creationPath = creationPath;
        this.creationBody = creationBody;
    }

    /** Sets up a tenant and a test key through the operator API at {@code base} and answers how to make one creation. */
    private java.util.function.Supplier<Creation> creations(String base) throws Exception {
        String owner = field(post(base + terms.ownersPath(), ADMIN, terms.ownerBody("\"Restart\"")).body(), "id");
        String key = field(post(base + terms.ownersPath() + "/" + owner + "/keys", ADMIN, "{\"mode\":\"test\"}").body(), "key");
        return () -> new Creation(creationPath,
                Map.of("Authorization", "Bearer " + key, "Idempotency-Key", UUID.randomUUID().toString()), creationBody.get());
    }

    /** -D properties the service needs beyond the test profile (a rate limit raised for the load). */
    protected Map<String, String> extraProperties() {
        return Map.of();
    }

    private static Path dir;
    private static int pgPort;
    private static EmbeddedPostgres pg;
    private static Process app;
    private static String base;

    protected static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void startDatabase() throws IOException {
        dir = Path.of("target", "pg-restart-" + ProcessHandle.current().pid()).toAbsolutePath();
        Files.createDirectories(dir);
        pgPort = freePort();
        pg = startPostgres();
    }

    private static EmbeddedPostgres startPostgres() throws IOException {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("data"))
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(true)
                .setPort(pgPort)
                .setLocaleConfig("locale", "C")
                .setServerConfig("fsync", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(dir.resolve("postgres.log").toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(dir.resolve("postgres.log").toFile()))
                .start();
    }

    @AfterAll
    static void stopEverything() throws IOException {
        if (app != null) {
            app.destroy();
            try {
                if (!app.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    app.destroyForcibly();
                }
            } catch (InterruptedException e) {
                app.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (pg != null) {
            pg.close();
        }
    }

    private void startApplication() throws Exception {
        int port = freePort();
        base = "http://127.0.0.1:" + port;
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.profile=test", "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.log.file.path=" + dir.resolve("app.log"),
                "-Dquarkus.datasource.username=postgres", "-Dquarkus.datasource.password="));
        extraProperties().forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-jar", "target/quarkus-app/quarkus-run.jar"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("app.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("DB_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres");
        builder.environment().put("DB_REACTIVE_URL", "postgresql://127.0.0.1:" + pgPort + "/postgres");
        app = builder.start();
        Waiting.await("ready (see " + dir.resolve("app.out") + ")", Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class) // not listening yet
                .failFast("the application exited; see " + dir.resolve("app.out"), () -> !app.isAlive())
                .until(() -> HTTP.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    @Test
    void aPostgresRestartUnderLoadAnswersNo500() throws Exception {
        startApplication();
        var next = creations(base);
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> bad = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger afterRestart = new AtomicInteger();
        AtomicBoolean restarted = new AtomicBoolean(false);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            Thread t = new Thread(() -> {
                while (running.get()) {
                    Creation one = next.get();
                    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + one.path()))
                            .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(one.body()));
                    one.headers().forEach(request::header);
                    int status;
                    try {
                        HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
                        status = answer.statusCode();
                        if (status >= 500 && (status != 503 || answer.headers().firstValue("Retry-After").isEmpty())) {
                            bad.add(status + " " + answer.body());
                        }
                    } catch (IOException e) {
                        status = -1;
                        bad.add("no answer: " + e);
                    } catch (InterruptedException e) {
                        return;
                    }
                    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    if (restarted.get() && status / 100 == 2) {
                        afterRestart.incrementAndGet();
                    }
                }
            }, "restart-load-" + c);
            t.start();
            clients.add(t);
        }
        // load before, during and after the restart: each phase ends on a count of answers, not on a sleep
        awaitAnswers(statuses, 100);
        long stopped = System.nanoTime();
        pg.close();
        awaitAnswers(statuses, total(statuses) + 20); // the service answers while the database is down
        pg = startPostgres();
        restarted.set(true);
        long back = System.nanoTime();
        Waiting.reached(Duration.ofSeconds(60), () -> afterRestart.get() >= 100); // asserted below, with the statuses
        running.set(false);
        for (Thread t : clients) {
            t.join(40_000);
        }
        Map<Integer, Integer> table = new TreeMap<>();
        statuses.forEach((s, n) -> table.put(s, n.get()));
        System.out.printf("postgres restart (down %d ms): statuses %s, 2xx after the restart %d%n",
                (back - stopped) / 1_000_000, table, afterRestart.get());
        assertEquals(List.of(), bad.stream().limit(10).toList(), "statuses " + table + "; log " + dir.resolve("app.log"));
        assertEquals(0, table.getOrDefault(500, 0));
        assertTrue(afterRestart.get() >= 100, "creations succeed again after the restart: " + table);
    }

    private static int total(Map<Integer, AtomicInteger> statuses) {
        return statuses.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private static void awaitAnswers(Map<Integer, AtomicInteger> statuses, int count) {
        Waiting.reached(Duration.ofSeconds(60), () -> total(statuses) >= count); // the statuses are asserted at the end
    }

    private static HttpResponse<String> post(String url, String authorization, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A JSON string field of a small answer (the tests' own objects: no escapes to undo). */
    private static String field(String json, String name) {
        var m = java.util.regex.Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new AssertionError("no " + name + " in " + json);
        }
        return m.group(1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
