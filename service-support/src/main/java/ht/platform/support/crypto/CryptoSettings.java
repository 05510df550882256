package ht.platform.support.crypto;

import io.smallrye.config.ConfigMapping;

@ConfigMapping(prefix = "platform.encryption")
public interface CryptoSettings {

    /** Base64 of 32 bytes (AES-256); env PLATFORM_ENCRYPTION_KEY. */
    String key();
}
