package ht.platform.kyc;

import ht.platform.support.testing.Executables;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The programs the live checks need on the machine: Tesseract (Debian tesseract-ocr) for the MRZ, Node.js and npm for
 * the face sidecar. Found on the PATH; when absent and the tests run as root with apt, installed from Debian (as
 * service-support's HeadlessChromium does for Chromium); otherwise the tests that need them are skipped with one line.
 */
public final class MachineTools {

    /** command → Debian packages that provide it. */
    private static final Map<String, List<String>> PACKAGES = Map.of("tesseract", List.of("tesseract-ocr", "tesseract-ocr-eng"),
            "node", List.of("nodejs"), "npm", List.of("npm"));
    private static final Map<String, Optional<String>> FOUND = new ConcurrentHashMap<>();
    private static boolean updated;

    private MachineTools() { }

    /** The command's path, installing its Debian package when possible; empty (with one line printed) when it cannot be had. */
    public static synchronized Optional<String> find(String command) {
        return FOUND.computeIfAbsent(command, c -> {
            Optional<String> path = Executables.onPath(c);
            if (path.isEmpty() && canInstall()) {
                System.out.println("[live checks] " + c + " not found: installing Debian's " + String.join(" ", PACKAGES.get(c)));
                install(PACKAGES.get(c));
                path = Executables.onPath(c);
            }
            if (path.isEmpty()) {
                System.out.println(missing(c));
            }
            return path;
        });
    }

    /** Skips the calling test (JUnit assumption) when the command cannot be had. */
    public static String require(String command) {
        Optional<String> path = find(command);
        Assumptions.assumeTrue(path.isPresent(), missing(command));
        return path.get();
    }

    public static String missing(String command) {
        return "[live checks] SKIPPED: no " + command + " on the PATH and it cannot be installed here (needs root and apt-get: apt-get install "
                + String.join(" ", PACKAGES.get(command)) + ")";
    }

    private static boolean canInstall() {
        return "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/apt-get"));
    }

    private static void install(List<String> packages) {
        try {
            if (!updated) {
                run(List.of("apt-get", "update", "-qq"));
                updated = true;
            }
            List<String> command = new java.util.ArrayList<>(List.of("apt-get", "install", "-y", "-qq", "--no-install-recommends"));
            command.addAll(packages);
            run(command);
        } catch (IOException e) {
            System.out.println("[live checks] apt-get failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void run(List<String> command) throws IOException, InterruptedException {
        ht.platform.support.testing.MachineCommand.run(command, null, 15);
    }
}
