package ht.platform.support.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.time.Duration;

@ConfigMapping(prefix = "webhooks")
public interface WebhookSettings {

    /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: http and private addresses allowed (tests, local demos only). */
    @WithName("allow-private-targets")
    @WithDefault("false")
    boolean allowPrivateTargets();

    @WithDefault("PT10S")
    Duration sendTimeout();

    /**
     * How long a claimed delivery is reserved for this replica: longer than the send timeout, and as short as
     * that allows, since it is also how long a delivery in flight at a crash waits before another replica sends it.
     */
    @WithDefault("PT20S")
    Duration lease();

    /**
     * WEBHOOKS_DELIVER: this replica runs the delivery loop. false makes an API-only replica: its events wait in
     * the outbox for a replica that delivers (and the benchmark builds a backlog this way to measure capacity).
     */
    @WithDefault("true")
    boolean deliver();

    /** Deliveries in flight per replica. */
    @WithDefault("64")
    int concurrency();

    /**
     * Deliveries in flight to one destination: a destination that hangs holds at most this many of the
     * {@link #concurrency()} slots, so it never stalls the others.
     */
    @WithDefault("8")
    int maxInFlightPerDestination();

    @WithDefault("WebhookSender/1.0")
    String userAgent();
}
