package ht.platform.kyc.provider;

import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A secret read from a file only when nobody but this process's user could have written it: the file (not a link) and
 * its directory belong to this user, the file is readable and writable by it alone (mode 600) and the directory is
 * closed to everyone else (mode 700).
 */
final class PrivateFile {

    private static final Logger LOG = Logger.getLogger(PrivateFile.class);
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);
    private static volatile Path warned;

    private PrivateFile() {
    }

    static Optional<String> read(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Object me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    || !me.equals(Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                    || !me.equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                    || !Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)
                            .equals(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS))
                    || Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).stream().anyMatch(OTHERS::contains)) {
                warnOnce(file);
                return Optional.empty();
            }
            return Optional.of(Files.readString(file).strip());
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static void warnOnce(Path file) {
        if (!file.equals(warned)) {
            warned = file;
            LOG.warnf("the face sidecar's secret file %s is not private to this user (a regular file of mode 600 in a directory of mode 700,"
                    + " both owned by this user): not read", file);
        }
    }
}
