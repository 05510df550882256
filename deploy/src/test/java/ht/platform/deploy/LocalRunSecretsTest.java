package ht.platform.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/local/run.sh keeps its secrets the owner's: {@code --prepare-only} runs the part of the script that prepares
 * .run-local/ and the keys (against a directory of its own, PLATFORM_RUN_STATE), then exits.
 */
class LocalRunSecretsTest {

    static final Path RUN_SH = ManifestConsistencyTest.ROOT.resolve("deploy/local/run.sh");

    @Test
    void aFreshDirectoryAndTheKeysCreatedInItAreTheOwnersOnly(@TempDir Path tmp) throws Exception {
        Path state = tmp.resolve("run-local");
        prepare(state);
        assertEquals("rwx------", mode(state));
        assertEquals("rw-------", mode(state.resolve("encryption.key")));
        assertEquals("rw-------", mode(state.resolve("kyc-signing.key")));
    }

    @Test
    void anEarlierWorldReadableDirectoryIsMendedAndItsKeysKept(@TempDir Path tmp) throws Exception {
        Path state = tmp.resolve("run-local");
        Files.createDirectories(state.resolve("postgres"));
        Files.writeString(state.resolve("encryption.key"), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n");
        Files.writeString(state.resolve("env"), "export ADMIN_TOKEN=earlier\n");
        Files.writeString(state.resolve("postgres/port"), "5432\n");
        Files.writeString(state.resolve("kyc-service.log"), "a log\n");
        for (Path p : new Path[] {state, state.resolve("postgres")}) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        for (String f : new String[] {"encryption.key", "env", "postgres/port", "kyc-service.log"}) {
            Files.setPosixFilePermissions(state.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }

        prepare(state);

        assertEquals("rwx------", mode(state));
        assertEquals("rwx------", mode(state.resolve("postgres")));
        for (String f : new String[] {"encryption.key", "env", "postgres/port", "kyc-service.log", "kyc-signing.key"}) {
            assertEquals("rw-------", mode(state.resolve(f)), f);
        }
        assertEquals("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", Files.readString(state.resolve("encryption.key")),
                "the key that encrypted stored data is kept");
    }

    private static void prepare(Path state) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", RUN_SH.toString(), "--prepare-only").redirectErrorStream(true);
        pb.environment().put("PLATFORM_RUN_STATE", state.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "run.sh --prepare-only did not exit");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
