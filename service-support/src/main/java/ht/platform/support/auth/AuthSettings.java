package ht.platform.support.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

@ConfigMapping(prefix = "platform.auth")
public interface AuthSettings {

    /** Paths under this prefix need an API key. */
    @WithDefault("/api/v1/")
    String protectedPrefix();

    /** Paths under the protected prefix that need no key (e.g. /api/v1/capabilities). */
    Optional<List<String>> publicPaths();

    /** Accepted key prefixes, e.g. gw_live_,gw_test_ */
    List<String> keyPrefixes();

    /** The error code of a 403 for a missing scope (INSUFFICIENT_SCOPE, PERMISSION_DENIED, FORBIDDEN). */
    @WithDefault("FORBIDDEN")
    String forbiddenCode();

    /** How long a resolved key is remembered; revocation takes effect within this time. */
    @WithDefault("PT5S")
    java.time.Duration cacheTtl();
}
