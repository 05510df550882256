package ht.platform.support.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The API documents' node tools (Redocly's CLI, openapi-typescript, openapi-fetch, TypeScript), pinned in the
 * repository's {@code api-clients/package.json} and {@code package-lock.json}, installed there by
 * {@code .ci/install-tools} ({@code npm ci}), never by a test. Node comes from the PATH. Without them, or with packages
 * older than the lock file, the tests that need them fail under {@code CI=true} and are skipped elsewhere
 * ({@link MissingTool}).
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

    /** {@code api-clients/} with its packages installed, or the test failed (CI) or skipped with the reason. */
    public static synchronized Path require() {
        if (installed == null && missing == null) {
            Path dir = root().resolve("api-clients");
            Path stamp = dir.resolve("node_modules/.package-lock.json");
            try {
                if (Executables.onPath("node").isEmpty()) {
                    missing = "[node tools] no node on the PATH: apt-get install nodejs npm";
                } else if (!Files.exists(stamp)) {
                    missing = "[node tools] no packages in " + dir.resolve("node_modules") + ": npm ci in " + dir;
                } else if (Files.getLastModifiedTime(stamp).compareTo(Files.getLastModifiedTime(dir.resolve("package-lock.json"))) < 0) {
                    missing = "[node tools] the packages in " + dir.resolve("node_modules") + " are older than package-lock.json: npm ci in " + dir;
                } else {
                    installed = dir;
                }
            } catch (IOException e) {
                missing = "[node tools] " + e;
            }
            if (missing != null) {
                System.out.println(missing);
            }
        }
        MissingTool.check(installed != null, missing);
        return installed;
    }

    /** {@code node} on the PATH (after {@link #require()}). */
    public static String node() {
        return Executables.onPath("node").orElseThrow();
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
