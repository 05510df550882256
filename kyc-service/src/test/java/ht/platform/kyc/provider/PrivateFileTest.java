package ht.platform.kyc.provider;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sidecar's secret is read only from a file nobody else could have written. */
class PrivateFileTest {

    private static Path secret(String dirMode, String fileMode) throws Exception {
        Path dir = Files.createTempDirectory("face-secret");
        Path file = dir.resolve("token");
        Files.writeString(file, "s3cret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(fileMode));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(dirMode));
        return file;
    }

    @Test
    void aFileOfMode600InADirectoryOfMode700IsRead() throws Exception {
        assertEquals(Optional.of("s3cret"), PrivateFile.read(secret("rwx------", "rw-------")));
    }

    @Test
    void aFileOthersCanReadOrWriteIsNotRead() throws Exception {
        assertEquals(Optional.empty(), PrivateFile.read(secret("rwx------", "rw-r--r--")));
        assertEquals(Optional.empty(), PrivateFile.read(secret("rwx------", "rw-rw-rw-")));
    }

    @Test
    void aFileInADirectoryOthersCanWriteIntoIsNotRead() throws Exception {
        assertEquals(Optional.empty(), PrivateFile.read(secret("rwxrwxrwx", "rw-------")));
        assertEquals(Optional.empty(), PrivateFile.read(secret("rwxr-xr-x", "rw-------")));
    }

    @Test
    void aLinkToTheSecretIsNotFollowed() throws Exception {
        Path real = secret("rwx------", "rw-------");
        Path link = real.resolveSibling("link");
        Files.createSymbolicLink(link, real);
        assertEquals(Optional.empty(), PrivateFile.read(link));
    }

    @Test
    void aMissingFileIsNoSecret() throws Exception {
        assertEquals(Optional.empty(), PrivateFile.read(Files.createTempDirectory("face-secret").resolve("absent")));
    }
}
