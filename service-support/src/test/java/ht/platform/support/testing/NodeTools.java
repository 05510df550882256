package ht.platform.support.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The API documents' node tools (Redocly's CLI, openapi-typescript, openapi-fetch, TypeScript), pinned in the
 * repository's {@code api-clients/package.json} and {@code package-lock.json} and installed there with {@code npm ci}
 * when missing or older than the lock file. Node and npm come from the PATH; when absent and the tests run as root
 * with apt, Debian's {@code nodejs} and {@code npm} are installed (as the kyc face sidecar's tests do); otherwise the
 * tests that need them are skipped with one line saying why.
 */
public final class NodeTools {

    private static Path installed;
    private static String missing;

    private NodeTools() { }

    /** The repository's root: the directory holding {@code redocly.yaml}, looked for from the working directory up. */
    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("redocly.yaml")) && Files.isDirectory(dir.resolve("api-clients"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no redocly.yaml with api-clients/ beside it above " + Path.of("").toAbsolutePath());
    }

    /** {@code api-clients/} with its packages installed, or a skipped test (JUnit assumption) with the reason. */
    public static synchronized Path require() {
        if (installed == null && missing == null) {
            Path dir = root().resolve("api-clients");
            Optional<String> npm = find("npm");
            if (find("node").isEmpty() || npm.isEmpty()) {
                missing = "[node tools] SKIPPED: no node/npm on the PATH and they cannot be installed here"
                        + " (needs root and apt-get: apt-get install nodejs npm)";
                System.out.println(missing);
            } else {
                try {
                    Path stamp = dir.resolve("node_modules/.package-lock.json");
                    if (!Files.exists(stamp) || Files.getLastModifiedTime(stamp).compareTo(Files.getLastModifiedTime(dir.resolve("package-lock.json"))) < 0) {
                        System.out.println("[node tools] npm ci in " + dir);
                        MachineCommand.run(List.of(npm.get(), "ci", "--no-audit", "--no-fund"), dir.toFile(), 10);
                    }
                    installed = dir;
                } catch (IOException e) {
                    throw new IllegalStateException("npm ci failed in " + dir, e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        Assumptions.assumeTrue(installed != null, missing);
        return installed;
    }

    /** {@code node} on the PATH (after {@link #require()}). */
    public static String node() {
        return find("node").orElseThrow();
    }

    private static Optional<String> find(String command) {
        Optional<String> path = Executables.onPath(command);
        if (path.isEmpty() && "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            System.out.println("[node tools] " + command + " not found: installing Debian's nodejs and npm");
            try {
                MachineCommand.run(List.of("apt-get", "update", "-qq"), null, 15);
                MachineCommand.run(List.of("apt-get", "install", "-y", "-qq", "--no-install-recommends", "nodejs", "npm"), null, 15);
            } catch (IOException e) {
                System.out.println("[node tools] apt-get failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            path = Executables.onPath(command);
        }
        return path;
    }

    /** Runs a tool of api-clients/node_modules/.bin; answers its exit code, its output going to {@code log}. */
    public static int run(Path log, String tool, String... args) throws IOException, InterruptedException {
        Path dir = require();
        List<String> command = new java.util.ArrayList<>(List.of(node(), dir.resolve("node_modules/.bin/" + tool).toString()));
        command.addAll(List.of(args));
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(tool + " did not end within 5 min; its log: " + log);
        }
        return process.exitValue();
    }
}
