package ht.platform.support.lifecycle;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Refuses to start outside the dev and test profiles when an operator token or a key holds a value that ships in this
 * repository (the dev overlay, compose.yaml, the profiles' defaults, the image's training run): anyone can read those,
 * so an operator API guarded by one is open and proofs signed with one can be forged. A local demo that runs the
 * production profile on the committed values says so with {@code PLATFORM_DEMO_SECRETS=true}
 * ({@code platform.demo-secrets}).
 * <p>
 * The committed values are known here by their SHA-256 only, so this list does not publish them a second time;
 * CommittedSecretsTest scans the repository and fails when a committed value is missing from it.
 */
@ApplicationScoped
public class CommittedSecrets {

    private static final Logger LOG = Logger.getLogger(CommittedSecrets.class);

    /** A setting that holds a secret, with the environment variable that usually sets it. */
    public record Setting(String property, String env) { }

    /**
     * Not {@code platform.encryption.old-keys}: a deployment that ran on a committed key and moved to its own keeps
     * the old one there to read what it sealed.
     */
    public static final List<Setting> SETTINGS = List.of(
            new Setting("admin.token", "ADMIN_TOKEN"),
            new Setting("platform.encryption.key", "PLATFORM_ENCRYPTION_KEY"),
            new Setting("kyc.proof.signing-key", "KYC_PROOF_SIGNING_KEY"),
            new Setting("kyc.proof.test-signing-key", "KYC_PROOF_TEST_SIGNING_KEY"));

    /** SHA-256 (hex) of each committed value (trimmed), and where it is committed. */
    static final Map<String, String> COMMITTED = Map.ofEntries(
            // operator tokens
            Map.entry("676b8cb409c3162bc5c12717f2cca422e427142c642f7375a8281f82ee4239b3", "the dev overlay"),
            Map.entry("f3a19ed4f3bb8ab7405e5cc9df9d3fce82f9fd2cb36c32e4dae0c921ffade818", "the dev overlay"),
            Map.entry("7c9d00e7d937734d3c2a58a7a0cb1c582354634f524ce5b9dc6a3eb5ac8afcba", "the dev overlay"),
            Map.entry("bc32a9a66697ce5242e5517f4a801fa2a3dccf9960459f666fec8a166289401e", "deploy/compose.yaml"),
            Map.entry("04b7b9363551a6759b21a9828e5eccaa045e45c4f3e21e71a62234a4f2032668", "deploy/container-check.sh"),
            Map.entry("17d6bfe05d1b1fb7bc499f8e3f639c7b3eda4c40f321eef8887a0c04c89a99c5", "the test profile"),
            Map.entry("085d8ec8706ef8ba4474a544fd8d285632242fd719ef32f54d1f89f1e2ab43db", "the AOT image's training run"),
            // encryption keys
            Map.entry("effd7ca2e9a6fb696268bfe85d60554e03d6e55c5851de8b93dbbdf1a088fdee", "the dev overlay"),
            Map.entry("450143fa9285a8f504d52dc670ff712f59a5351c40ddf92747e505dd82fd353f", "the dev overlay"),
            Map.entry("8c81a05522634ce8ba8812500a217c5a74913545f347c68f8c017ebff2b4e432", "the dev overlay"),
            Map.entry("53c24402cf9b01179ba9c41440a726e07a9331b85456f835a1cd5598a72c201e", "deploy/compose.yaml"),
            Map.entry("c58067838ee1cfd066e0aeda0bbc388c188301109ad1e9324e1edbdcca05e52e", "deploy/compose.yaml"),
            Map.entry("5c0afac1dd380d0fb19bfb6d9c719d81d85d626f6063f62046a07029e3ecf5e1", "deploy/compose.yaml"),
            Map.entry("e9331fed98d735e711f73a48dfbe20807eb7edcab10e1c113f7e883ef30c1910", "the dev profile"),
            Map.entry("88b0aa72e1a2afaca27b3242cbf2f431b03b0db99c914ce92ee554723845813e", "the test profile"),
            Map.entry("1fd6a77af81421033fa278802fc2ef7833b75c80639bca49f344fefee5c460cb", "the test profile"),
            Map.entry("51643eac9777b63a7b268174d1fd4276daedec9bc9ea0bc6e5abf69047bc54f6", "the AOT image's training run"),
            // kyc proof-signing keys
            Map.entry("f71fee53b74ad90fd953d2156e306ef304cca8a063da3db67447508164e78f6c", "the dev overlay"),
            Map.entry("01f07b7ace071d1809918c843f0459b96eed65cac2f1b1dc424e7ad6bf3dc276", "deploy/compose.yaml"),
            Map.entry("415e1782e5ba3e678182dc297d9a1d95c126e895b178949f872be6e31ff6c659", "the test profile"));

    void check(@Observes @Priority(1) StartupEvent event, Config config) {
        Function<String, Optional<String>> settings = name -> config.getOptionalValue(name, String.class);
        Optional<String> refusal = refusal(ConfigUtils.getProfiles(), settings);
        if (refusal.isPresent()) {
            // Quarkus prints a ConfigurationException's message alone, one line, and exits with 1
            throw new ConfigurationException(refusal.get());
        }
        List<String> found = checked(ConfigUtils.getProfiles()) ? found(settings) : List.of();
        if (!found.isEmpty()) {
            LOG.warnf("PLATFORM_DEMO_SECRETS=true: running on values published in the repository (%s); a local demo only",
                    String.join(", ", found));
        }
    }

    /** Why this start is refused, if it is. */
    static Optional<String> refusal(List<String> profiles, Function<String, Optional<String>> config) {
        if (!checked(profiles)) {
            return Optional.empty();
        }
        List<String> found = found(config);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (config.apply("platform.demo-secrets").map(v -> v.trim().equalsIgnoreCase("true")).orElse(false)) {
            return Optional.empty();
        }
        return Optional.of("Refusing to start: " + String.join(", ", found) + (found.size() == 1 ? " is a value" : " are values")
                + " published in the repository; set your own (docs/security.md), or PLATFORM_DEMO_SECRETS=true for a local demo");
    }

    private static boolean checked(List<String> profiles) {
        return !profiles.contains("dev") && !profiles.contains("test");
    }

    /** The settings (and where their value is committed) that hold a committed value; never the values themselves. */
    static List<String> found(Function<String, Optional<String>> config) {
        List<String> found = new ArrayList<>();
        for (Setting setting : SETTINGS) {
            config.apply(setting.property()).flatMap(CommittedSecrets::committedIn)
                    .ifPresent(where -> found.add(setting.property() + " (" + setting.env() + ", the value of " + where + ")"));
        }
        return found;
    }

    /** Where the value is committed, if it is. */
    static Optional<String> committedIn(String value) {
        String trimmed = value.trim();
        return trimmed.isEmpty() ? Optional.empty() : Optional.ofNullable(COMMITTED.get(sha256(trimmed)));
    }

    static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
