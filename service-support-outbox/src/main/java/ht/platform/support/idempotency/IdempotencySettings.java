package ht.platform.support.idempotency;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

@ConfigMapping(prefix = "platform.idempotency")
public interface IdempotencySettings {

    /** The service's own schema, which holds the idempotency_keys table. */
    String schema();

    @WithDefault("PT48H")
    Duration retention();

    @WithDefault("200")
    int maxKeyLength();
}
