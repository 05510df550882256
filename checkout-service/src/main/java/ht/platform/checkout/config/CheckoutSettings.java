package ht.platform.checkout.config;

import ht.platform.support.jobs.Jobs;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.util.Map;

/** Typed checkout settings. */
@ConfigMapping(prefix = "checkout")
public interface CheckoutSettings {

    /** Webhook retry delays after each failed attempt; then the dead letter. */
    @WithName("webhooks.retry-schedule")
    @WithDefault("1m,5m,30m,2h,6h,12h,24h,24h")
    String retrySchedule();

    /** How long the previous secret of a rotated endpoint keeps signing beside the new one. */
    @WithName("webhooks.rotation-overlap")
    @WithDefault("PT24H")
    java.time.Duration rotationOverlap();

    /** Provider calls older than this without an answer are asked again by the reconciler (same attempt id). */
    @WithName("reconcile.stale-after")
    @WithDefault("PT2M")
    java.time.Duration staleAfter();

    /** The scheduled passes: {@code checkout.jobs.<name>.every} (reconcile, expiry). */
    Map<String, Jobs.Settings> jobs();
}
