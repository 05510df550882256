package ht.platform.support.web;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The per-address budget of returns from a payment rail ({@link ReturnGate}), per replica. */
@ConfigMapping(prefix = "moncash-returns")
public interface ReturnGateSettings {

    @WithDefault("12")
    int perMinute();

    @WithDefault("6")
    int burst();
}
