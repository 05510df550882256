package ht.platform.support.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a set-up command of the tests (apt-get, npm ci) to its end. Its input is /dev/null and its output goes to a log
 * file, never to the test JVM's own streams: surefire talks to the forked JVM over them, and a child that inherits
 * stdin (npm sets it non-blocking) breaks that channel and fails the whole module.
 */
public final class MachineCommand {

    private MachineCommand() { }

    public static void run(List<String> command, File directory, long timeoutMinutes) throws IOException, InterruptedException {
        Path log = Files.createTempFile("machine-command-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Process process = builder.start();
        if (!process.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end within " + timeoutMinutes + " min; its log: " + log);
        }
        if (process.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + "; its log " + log + " ends: "
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size())));
        }
    }
}
