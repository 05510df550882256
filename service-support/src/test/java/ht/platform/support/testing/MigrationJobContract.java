package ht.platform.support.testing;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A release as Kubernetes runs it (deploy/k8s: the {@code <service>-migrate-<release>} Job, pods with
 * {@code DB_MIGRATE_AT_START=false}), on the packaged service and a database of its own: a pod started before the
 * migrations runs but is not ready and says which version it waits for; the Job (the same jar with
 * {@code QUARKUS_INIT_AND_EXIT=true}) migrates and exits 0; the waiting pod turns ready without a restart.
 */
public abstract class MigrationJobContract {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void aPodWaitsForTheMigrationJobAndTurnsReadyWhenItHasRun() throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        Assumptions.assumeTrue(Files.isRegularFile(jar), "not packaged: " + jar);
        String expected = applicationProperty("platform.schema.version");
        String database = "platform_migrate_job_" + Long.toHexString(System.nanoTime());
        String jdbc = TestDatabase.jdbcUrl();
        String url = jdbc.substring(0, jdbc.lastIndexOf('/') + 1) + database;
        sql("CREATE DATABASE " + database);
        Path podLog = Files.createTempFile("pod-", ".log");
        Process pod = null;
        try {
            int port = freePort();
            pod = start(jar, url, Map.of("DB_MIGRATE_AT_START", "false", "QUARKUS_HTTP_PORT", Integer.toString(port)), podLog);
            HttpResponse<String> waiting = awaitAnswer(pod, port, podLog);
            assertEquals(503, waiting.statusCode(), waiting.body());
            assertTrue(waiting.body().replaceAll("\\s", "").contains("\"name\":\"Databaseschemamigrated\",\"status\":\"DOWN\","
                    + "\"data\":{\"expected\":\"" + expected + "\",\"found\":\"nomigrationhistory\"}"), waiting.body());

            Path jobLog = Files.createTempFile("job-", ".log");
            Process job = start(jar, url, Map.of("DB_MIGRATE_AT_START", "true", "QUARKUS_INIT_AND_EXIT", "true",
                    "QUARKUS_HTTP_PORT", Integer.toString(freePort())), jobLog);
            assertTrue(job.waitFor(300, TimeUnit.SECONDS), "the migration Job did not exit; log: " + jobLog);
            assertEquals(0, job.exitValue(), "the migration Job failed:\n" + tail(jobLog));
            Files.deleteIfExists(jobLog);
            List<String> whileWaiting = Files.readAllLines(podLog);
            assertTrue(whileWaiting.stream().noneMatch(line -> line.contains("does not exist")),
                    "the pod's scheduled work waits for the schema instead of failing on it:\n" + tail(podLog));

            Waiting.await("the pod ready", Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                HttpResponse<String> ready = get(port, "/q/health/ready");
                assertEquals(200, ready.statusCode(), ready.body());
            });
            assertTrue(pod.isAlive(), "the pod turned ready without a restart");
        } finally {
            if (pod != null) {
                pod.destroy();
                if (!pod.waitFor(60, TimeUnit.SECONDS)) {
                    pod.destroyForcibly().waitFor();
                }
            }
            sql("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
        Files.deleteIfExists(podLog);
    }

    static Process start(Path jar, String jdbcUrl, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.profile=test", "-Dquarkus.log.file.enabled=false", "-jar", jar.toString()))
                .directory(jar.getParent().toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("DB_JDBC_URL", jdbcUrl);
        pb.environment().put("DB_REACTIVE_URL", jdbcUrl.substring("jdbc:".length()));
        pb.environment().put("DB_USER", System.getProperty(TestDatabase.USER_PROPERTY));
        pb.environment().put("DB_PASSWORD", System.getProperty(TestDatabase.PASSWORD_PROPERTY));
        pb.environment().putAll(env);
        return pb.start();
    }

    /** The first answer of /q/health/ready once the pod listens. */
    static HttpResponse<String> awaitAnswer(Process pod, int port, Path log) throws Exception {
        try {
            return Waiting.await("the pod to answer", Duration.ofSeconds(300)) // a loaded 2-core machine
                    .pollInterval(Duration.ofMillis(100)).ignoreExceptionsInstanceOf(IOException.class)
                    .failFast("the pod exited", () -> {
                        if (!pod.isAlive()) {
                            fail("the pod exited (" + pod.exitValue() + ") before answering:\n" + tail(log));
                        }
                    })
                    .until(() -> get(port, "/q/health/ready"), answer -> true);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the pod never answered:\n" + tail(log), e);
        }
    }

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String applicationProperty(String name) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        return properties.getProperty(name);
    }

    static void sql(String statement) throws Exception {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
