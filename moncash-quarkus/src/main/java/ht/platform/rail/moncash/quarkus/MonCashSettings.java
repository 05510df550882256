package ht.platform.rail.moncash.quarkus;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * The live MonCash rail: {@code MONCASH_API_BASE}, {@code MONCASH_GATEWAY_BASE}, {@code MONCASH_CLIENT_ID},
 * {@code MONCASH_CLIENT_SECRET}. Unset: no live MonCash rail.
 */
@ConfigMapping(prefix = "moncash")
public interface MonCashSettings {

    Optional<String> apiBase();

    Optional<String> gatewayBase();

    Optional<String> clientId();

    Optional<String> clientSecret();

    @WithDefault("PT5S")
    Duration connectTimeout();

    /** Whole-call budget; an answer later than this is an unknown outcome, settled by a lookup. */
    @WithDefault("PT20S")
    Duration timeout();
}
