package ht.platform.support.lifecycle;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The committed values of the operator token, the encryption key and kyc's proof keys, as the repository holds them
 * (properties, manifests, compose, scripts, Dockerfiles), are all refused in the production profile.
 */
class CommittedSecretsTest {

    /** A secret's name as the repository writes it, then its value: {@code admin.token=…}, {@code ADMIN_TOKEN: …}, {@code - admin-token=…}. */
    private static final Pattern ASSIGNMENT = Pattern.compile("(?<![{\\w.$-])((?:%[\\w-]+\\.)?(?:admin\\.token"
            + "|platform\\.encryption\\.(?:key|old-keys)|kyc\\.proof\\.(?:test-)?signing-key)"
            + "|[A-Z_]*(?:ADMIN_TOKEN|ENCRYPTION_KEY|ENCRYPTION_OLD_KEYS|SIGNING_KEY|_ADMIN)"
            + "|admin-token|encryption-key|proof-signing-key)\\s*[=:]\\s*(\"[^\"]*\"|'[^']*'|[^\\s,;]+)");
    /** {@code ${NAME:default}} (properties) and {@code ${NAME:-default}} (shell, compose) */
    private static final Pattern DEFAULT = Pattern.compile("^\\$\\{[A-Za-z_][\\w.-]*:-?(.*)}$");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules", ".run-local", ".mvn");

    record Committed(Path file, String name, String value) { }

    static Path root;
    static List<Committed> committed;

    @BeforeAll
    static void scan() throws IOException {
        root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("deploy/compose.yaml"))) {
            root = root.getParent();
        }
        committed = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).filter(CommittedSecretsTest::scanned).toList()) {
                String text;
                try {
                    text = Files.readString(file, StandardCharsets.UTF_8);
                } catch (MalformedInputException binary) {
                    continue;
                }
                Matcher m = ASSIGNMENT.matcher(text);
                while (m.find()) {
                    String value = m.group(2).replaceAll("^[\"']|[\"']$", "");
                    Matcher d = DEFAULT.matcher(value);
                    if (d.matches()) {
                        value = d.group(1);
                    }
                    // a value computed where it is used ($(openssl …), $VARIABLE, printf's %s) or elided in a document is not committed
                    if (!value.isBlank() && !value.contains("$") && !value.contains("`") && !value.contains("…")
                            && !value.startsWith("%s")) {
                        committed.add(new Committed(root.relativize(file), m.group(1), value));
                    }
                }
            }
        }
    }

    static boolean scanned(Path file) {
        for (Path part : root.relativize(file)) {
            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                return false;
            }
        }
        String name = file.getFileName().toString();
        // Java sources hold test fixtures, never configuration
        return !name.endsWith(".java") && !name.endsWith(".jar") && !name.endsWith(".png") && !name.endsWith(".class");
    }

    @Test
    void theScanFindsTheRepositorysSecrets() {
        Set<String> files = new TreeSet<>();
        committed.forEach(c -> files.add(c.file().toString()));
        for (String expected : List.of("deploy/compose.yaml", "deploy/k8s/overlays/dev/kustomization.yaml",
                "kyc-service/src/main/resources/application.properties", "checkout-service/src/main/resources/application.properties",
                "wallet-gateway/src/main/resources/application.properties", "deploy/docker/jvm-aot.Dockerfile")) {
            assertTrue(files.contains(expected), "the scan found no secret in " + expected + " (found in " + files + ")");
        }
        Set<String> names = new TreeSet<>();
        committed.forEach(c -> names.add(c.name()));
        assertTrue(names.containsAll(List.of("admin-token", "encryption-key", "proof-signing-key", "ADMIN_TOKEN",
                "PLATFORM_ENCRYPTION_KEY", "KYC_PROOF_SIGNING_KEY", "%test.admin.token")), "names found: " + names);
    }

    @Test
    void everyCommittedSecretIsOnTheList() {
        List<String> missing = new ArrayList<>();
        for (Committed c : committed) {
            if (CommittedSecrets.committedIn(c.value()).isEmpty()) {
                missing.add(c.file() + " " + c.name() + ": add " + CommittedSecrets.sha256(c.value().trim())
                        + " to CommittedSecrets.COMMITTED");
            }
        }
        assertTrue(missing.isEmpty(), "committed secrets the production profile would accept:\n" + String.join("\n", missing));
    }

    @Test
    void theProductionProfileRefusesEachCommittedValueInEachSetting() {
        for (Committed c : committed) {
            for (CommittedSecrets.Setting setting : CommittedSecrets.SETTINGS) {
                Optional<String> refusal = CommittedSecrets.refusal(List.of("prod"), config(Map.of(setting.property(), c.value())));
                assertTrue(refusal.isPresent(), c.file() + " " + c.name() + " as " + setting.property());
                String line = refusal.get();
                assertTrue(line.contains(setting.property() + " (" + setting.env()), line);
                assertFalse(line.contains(c.value().trim()), "the refusal must not print the value: " + line);
                assertFalse(line.contains("\n"), "one line: " + line);
            }
        }
    }

    @Test
    void allRefusedSettingsAreNamedInOneLine() {
        Committed any = committed.get(0);
        Map<String, String> settings = new HashMap<>();
        CommittedSecrets.SETTINGS.forEach(s -> settings.put(s.property(), any.value()));
        String line = CommittedSecrets.refusal(List.of("prod"), config(settings)).orElseThrow();
        CommittedSecrets.SETTINGS.forEach(s -> assertTrue(line.contains(s.property()), line));
        assertFalse(line.contains("\n"), line);
    }

    @Test
    void freshValuesStart() throws Exception {
        SecureRandom random = new SecureRandom();
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] token = new byte[24];
        random.nextBytes(token);
        String proofKey = Base64.getEncoder().encodeToString(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded());
        Map<String, String> fresh = Map.of("admin.token", HexFormat.of().formatHex(token),
                "platform.encryption.key", Base64.getEncoder().encodeToString(key),
                "kyc.proof.signing-key", proofKey, "kyc.proof.test-signing-key", proofKey);
        assertEquals(Optional.empty(), CommittedSecrets.refusal(List.of("prod"), config(fresh)));
        assertEquals(Optional.empty(), CommittedSecrets.refusal(List.of("prod"), config(Map.of())), "nothing set: other checks decide");
    }

    @Test
    void theDemoOptInAndTheDevAndTestProfilesStartOnCommittedValues() {
        for (Committed c : committed) {
            Map<String, String> demo = Map.of("admin.token", c.value(), "platform.demo-secrets", "true");
            assertEquals(Optional.empty(), CommittedSecrets.refusal(List.of("prod"), config(demo)), c.toString());
            Map<String, String> plain = Map.of("admin.token", c.value());
            assertEquals(Optional.empty(), CommittedSecrets.refusal(List.of("test"), config(plain)));
            assertEquals(Optional.empty(), CommittedSecrets.refusal(List.of("dev"), config(plain)));
            Map<String, String> optedOut = Map.of("admin.token", c.value(), "platform.demo-secrets", "false");
            assertTrue(CommittedSecrets.refusal(List.of("prod"), config(optedOut)).isPresent());
        }
    }

    private static Function<String, Optional<String>> config(Map<String, String> values) {
        return name -> Optional.ofNullable(values.get(name));
    }
}
