package ht.platform.kyc;

import ht.platform.support.testing.Executables;
import ht.platform.support.testing.MissingTool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The programs the live checks need on the machine: Tesseract (Debian tesseract-ocr) for the MRZ, Node.js for the face
 * sidecar. Found on the PATH, never installed by a test ({@code .ci/install-tools} installs them); a test that needs
 * one that is missing fails under {@code CI=true} and is skipped elsewhere ({@link MissingTool}).
 */
public final class MachineTools {

    /** command → Debian packages that provide it. */
    private static final Map<String, List<String>> PACKAGES = Map.of("tesseract", List.of("tesseract-ocr", "tesseract-ocr-eng"),
            "node", List.of("nodejs"), "npm", List.of("npm"));

    private MachineTools() { }

    /** The command's path, or empty. */
    public static Optional<String> find(String command) {
        return Executables.onPath(command);
    }

    /** The command's path; without it the calling test fails (CI) or is skipped. */
    public static String require(String command) {
        Optional<String> path = find(command);
        MissingTool.check(path.isPresent(), missing(command));
        return path.get();
    }

    public static String missing(String command) {
        return "[live checks] no " + command + " on the PATH: apt-get install " + String.join(" ", PACKAGES.get(command));
    }
}
