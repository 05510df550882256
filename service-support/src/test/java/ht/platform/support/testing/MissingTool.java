package ht.platform.support.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A test that needs a program the machine lacks (Chromium, Tesseract, Node packages). The tests never install one:
 * {@code .ci/install-tools} does, before {@code ./mvnw -B verify} ({@code .ci/run} calls it). Under {@code CI=true} a
 * missing program fails the test, since CI installed everything first; elsewhere the test is skipped with the reason.
 */
public final class MissingTool {

    private MissingTool() { }

    /** Nothing when {@code present}; else the failure (CI) or the skip, saying {@code what} is missing. */
    public static void check(boolean present, String what) {
        if (present) {
            return;
        }
        String reason = what + " (.ci/install-tools installs it)";
        if ("true".equals(System.getenv("CI"))) {
            Assertions.fail("CI=true and " + reason);
        }
        Assumptions.abort(reason);
    }
}
