package ht.platform.support.crypto;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

@ConfigMapping(prefix = "platform.encryption")
public interface CryptoSettings {

    /** Base64 of 32 bytes (AES-256); env PLATFORM_ENCRYPTION_KEY. Everything new is sealed with it. */
    String key();

    /**
     * Earlier keys, base64, comma-separated; env PLATFORM_ENCRYPTION_OLD_KEYS. What they sealed stays readable;
     * nothing new is sealed with them. To rotate: the new key becomes PLATFORM_ENCRYPTION_KEY and the old one
     * moves here.
     */
    Optional<List<String>> oldKeys();

    /**
     * PLATFORM_ENCRYPTION_SEAL_FORMAT: the form new values are sealed in, {@code legacy} or {@code tink}. Both open
     * either way; {@code legacy} (the default of this release) is the one the release before it opens, so that it
     * can still be rolled back to (docs/deployment.md "Upgrades and rollbacks").
     */
    @WithDefault("legacy")
    SealFormat sealFormat();
}
