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

    /** How long a key the database does not know is refused without asking it again (forgotten when a key is issued). */
    @WithDefault("PT30S")
    java.time.Duration unknownKeyTtl();

    /** Authentication failures each client address may have: a burst, then a steady rate; past it 429. */
    Failures failures();

    /** Refusals of made-up keys rehearsed at start, so that a flood meets compiled code (0: none). */
    @WithDefault("3000")
    int rehearsals();

    /** Key lookups in the database at once, whatever the number of clients; the rest wait in a bounded line. */
    Lookups lookups();

    interface Failures {

        @WithDefault("20")
        int burst();

        @WithDefault("30")
        int perMinute();
    }

    interface Lookups {

        /** Taken as at most a quarter of the connection pool. */
        @WithDefault("4")
        int concurrent();

        /** Lookups that may wait for one of {@link #concurrent}; past that 503 with Retry-After. */
        @WithDefault("100")
        int queued();
    }
}
