package ht.platform.support.testing;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged service stops in order on SIGTERM, as a pod's does: readiness answers DOWN while the process still
 * serves (the shutdown delay), the process exits well inside the pods' 30 s grace period, and its log keeps its last
 * lines, Quarkus's {@code stopped in} among them (an asynchronous console lost them).
 */
public abstract class OrderlyStopContract {

    @Test
    void sigtermTurnsReadinessDownThenStopsWithItsLastLinesLogged() throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        Assumptions.assumeTrue(Files.isRegularFile(jar), "not packaged: " + jar);
        String database = "platform_stop_" + Long.toHexString(System.nanoTime());
        String jdbc = TestDatabase.jdbcUrl();
        MigrationJobContract.sql("CREATE DATABASE " + database);
        Path log = Files.createTempFile("stop-", ".log");
        Process service = null;
        try {
            int port = MigrationJobContract.freePort();
            service = MigrationJobContract.start(jar, jdbc.substring(0, jdbc.lastIndexOf('/') + 1) + database,
                    Map.of("QUARKUS_HTTP_PORT", Integer.toString(port), "QUARKUS_SHUTDOWN_DELAY", "2s",
                            "_TEST_QUARKUS_SHUTDOWN_DELAY", "2s"), log);
            HttpResponse<String> ready = MigrationJobContract.awaitAnswer(service, port, log);
            if (ready.statusCode() != 200) {
                Waiting.await("the service ready", Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                    HttpResponse<String> again = MigrationJobContract.get(port, "/q/health/ready");
                    assertEquals(200, again.statusCode(), again.body());
                });
            }

            long stop = System.nanoTime();
            service.destroy(); // SIGTERM
            // the signal reaches the JVM's handler asynchronously: readiness turns DOWN soon after, within the delay
            Waiting.await("readiness DOWN while still serving", Duration.ofMillis(1500)).pollInterval(Duration.ofMillis(20))
                    .untilAsserted(() -> {
                        HttpResponse<String> stopping = MigrationJobContract.get(port, "/q/health/ready");
                        assertEquals(503, stopping.statusCode(), stopping.body());
                    });
            assertTrue(service.isAlive(), "still serving during the shutdown delay");
            assertTrue(service.waitFor(25, TimeUnit.SECONDS), "did not exit within 25 s:\n" + MigrationJobContract.tail(log));
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stop);
            List<String> lines = Files.readAllLines(log);
            assertTrue(lines.stream().anyMatch(l -> l.contains("stopped in")),
                    "no 'stopped in' line after " + seconds + " s:\n" + MigrationJobContract.tail(log));
        } finally {
            if (service != null && service.isAlive()) {
                service.destroyForcibly().waitFor();
            }
            MigrationJobContract.sql("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
        Files.deleteIfExists(log);
    }
}
