package ht.platform.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The class of native-image build failure deploy/native-check.sh also looks for: a static SecureRandom (or Random)
 * created when its class initializes is seeded at image build time and frozen into the image. The one allowed is
 * service-support's Randomness.Holder, initialized at run time (quarkus.native.additional-build-args).
 */
class NativeImageRulesTest {

    static final Pattern EAGER_RANDOM = Pattern.compile("static\\s+(final\\s+)?(java\\.security\\.)?(Secure)?Random\\s+\\w+\\s*=");

    @Test
    void noStaticRandomOutsideTheRunTimeInitializedHolder() throws IOException {
        List<String> found;
        try (Stream<Path> files = Files.walk(ManifestConsistencyTest.ROOT)) {
            found = files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.getFileName().toString().equals("Randomness.java"))
                    .filter(p -> {
                        try {
                            return EAGER_RANDOM.matcher(Files.readString(p)).find();
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(p -> ManifestConsistencyTest.ROOT.relativize(p).toString()).sorted().toList();
        }
        assertEquals(List.of(), found, "static Random/SecureRandom fields; use ht.platform.support.crypto.Randomness.secure()");
    }

    @Test
    void everyServiceInitializesTheHolderAtRunTime() throws IOException {
        for (String s : ManifestConsistencyTest.SERVICES) {
            String props = Files.readString(ManifestConsistencyTest.ROOT.resolve(s + "/src/main/resources/application.properties"));
            assertEquals(true, props.contains("--initialize-at-run-time=ht.platform.support.crypto.Randomness$Holder"),
                    s + ": quarkus.native.additional-build-args must initialize Randomness$Holder at run time");
        }
    }
}
