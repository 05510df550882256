package ht.platform.support.dashboard;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The merchant dashboard: where its tables live, how long links and sessions last, the cookie's flags. */
@ConfigMapping(prefix = "platform.dashboard")
public interface DashboardSettings {

    /** The service's own schema, which holds dashboard_links and dashboard_sessions. */
    String schema();

    /** The service's name in the page header (Wallet Gateway, Checkout, KYC). */
    String title();

    @WithDefault("PT5M")
    Duration linkTtl();

    @WithDefault("PT30M")
    Duration idleTimeout();

    @WithDefault("PT12H")
    Duration absoluteTimeout();

    /** The Secure cookie flag; off only in dev and test, which run over plain http on localhost. */
    @WithDefault("true")
    boolean secureCookie();
}
