package ht.platform.support.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** HTTP edge settings every service shares; each service names its own request-id header. */
@ConfigMapping(prefix = "platform.http")
public interface HttpSettings {

    /** e.g. Kyc-Request-Id, Checkout-Request-Id, X-Gateway-Request-Id */
    String requestIdHeader();

    @WithDefault("1048576")
    long maxBodyBytes();
}
