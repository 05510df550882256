package ht.platform.support.ops;

import ht.platform.support.testing.Waiting;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 item 7: Ctrl-C on {@code deploy/local/run.sh} left the embedded PostgreSQL running, because its watchdog
 * was in the terminal's foreground process group and died of the same SIGINT as its owner. Here an owner shell in a
 * process group of its own starts the embedded server the way run.sh does ({@code EmbeddedPostgresServer start DIR
 * $$ DB}), the whole group gets SIGINT (what a terminal's Ctrl-C sends), and the server must be gone soon after.
 */
class EmbeddedPostgresSignalsTest {

    @Test
    void sigintToTheOwnersProcessGroupStopsTheEmbeddedServer() throws Exception {
        Path dir = Path.of("target", "pg-signals-" + ProcessHandle.current().pid()).toAbsolutePath();
        Files.createDirectories(dir);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String script = "'" + javaBin + "' -cp \"$CP\" ht.platform.devpostgres.EmbeddedPostgresServer start '" + dir
                + "' $$ platform > '" + dir.resolve("port") + ".out' 2> '" + dir.resolve("start.err") + "' || exit 1; exec sleep 600";
        // as in a terminal: SIGINT and SIGHUP at their default (a build started in the background inherits them
        // ignored, which would hide the fault), the owner leading a process group of its own
        ProcessBuilder builder = new ProcessBuilder("env", "--default-signal=INT,HUP,QUIT,TERM", "setsid", "bash", "-c", script)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("CP", System.getProperty("java.class.path"));
        Process owner = builder.start();
        long postmaster = -1;
        try {
            postmaster = awaitPostmaster(dir, owner);
            assertTrue(alive(postmaster), "the server runs while its owner does");
            // Ctrl-C: SIGINT to the owner's whole process group (setsid made the owner, env's pid, its leader)
            new ProcessBuilder("kill", "-INT", "--", "-" + owner.pid()).inheritIO().start().waitFor();
            assertTrue(owner.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), () -> "the owner stops on SIGINT: " + tree(owner.pid()));
            long server = postmaster;
            Waiting.await("the embedded PostgreSQL (pid " + postmaster + ") to stop", Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> !alive(server));
            assertTrue(!Files.exists(dir.resolve("port")), "the port file is gone with the server");
        } finally {
            owner.destroyForcibly();
            if (postmaster > 0 && alive(postmaster)) { // never leave a server behind, even when the test fails
                new ProcessBuilder("kill", "-INT", Long.toString(postmaster)).start().waitFor();
            }
        }
    }

    private static long awaitPostmaster(Path dir, Process owner) throws Exception {
        Path pidFile = dir.resolve("data").resolve("postmaster.pid");
        // the starter has exited and the owner waits (as run.sh does): a SIGINT while the starter still runs would be
        // taken by bash as handled by its child
        return Waiting.await("the embedded server to start", Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                .failFast("the owner exited", () -> assertTrue(owner.isAlive(), () -> "the owner exited: "
                        + (Files.exists(dir.resolve("start.err")) ? read(dir.resolve("start.err")) : "")))
                .until(() -> {
                    boolean waiting = owner.info().command().map(c -> c.endsWith("sleep")).orElse(false);
                    if (waiting && Files.exists(pidFile)) {
                        List<String> lines = Files.readAllLines(pidFile);
                        if (!lines.isEmpty() && !lines.get(0).isBlank()) {
                            return Long.parseLong(lines.get(0).strip());
                        }
                    }
                    return -1L;
                }, pid -> pid > 0);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private static String tree(long session) {
        try {
            Process ps = new ProcessBuilder("ps", "-o", "pid,pgid,sid,stat,args", "-s", Long.toString(session)).start();
            return new String(ps.getInputStream().readAllBytes());
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private static boolean alive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && handle.get().isAlive();
    }
}
