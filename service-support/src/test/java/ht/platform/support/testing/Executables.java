package ht.platform.support.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where a command is on this machine's PATH. */
public final class Executables {

    private Executables() {
    }

    /** The first executable {@code command} on the PATH, or empty. */
    public static Optional<String> onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }
}
