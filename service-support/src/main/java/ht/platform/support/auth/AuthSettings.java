package ht.platform.support.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;

@ConfigMapping(prefix = "platform.auth")
public interface AuthSettings {

    /** Accepted key prefixes, e.g. gw_live_,gw_test_ */
    List<String> keyPrefixes();

    /** The error code of a 403 for a missing scope (INSUFFICIENT_SCOPE, PERMISSION_DENIED, FORBIDDEN). */
    @WithDefault("FORBIDDEN")
    String forbiddenCode();

    /** How long a resolved key is remembered; revocation takes effect within this time. */
    @WithDefault("PT5S")
    java.time.Duration cacheTtl();
}
