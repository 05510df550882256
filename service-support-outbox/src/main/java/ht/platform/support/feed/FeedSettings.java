package ht.platform.support.feed;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

@ConfigMapping(prefix = "platform.feed")
public interface FeedSettings {

    /** PLATFORM_FEED_RETENTION: how long an event stays readable on the feed; an older cursor is 410 CURSOR_EXPIRED. */
    @WithDefault("P30D")
    Duration retention();

    /** PLATFORM_FEED_SEQUENCE_BATCH: the most events one sequencer transaction numbers. */
    @WithDefault("5000")
    int sequenceBatch();

    /** How much of a replica the feed may take ({@link FeedAdmission}). */
    Limits limits();

    interface Limits {
        /** PLATFORM_FEED_LIMITS_PER_KEY: reads in flight (held ones included) per API key. */
        @WithDefault("10")
        int perKey();

        /** PLATFORM_FEED_LIMITS_PER_OWNER: reads in flight per application or project, all its keys together. */
        @WithDefault("40")
        int perOwner();

        /** PLATFORM_FEED_LIMITS_PER_REPLICA: reads in flight on one replica, all owners together. */
        @WithDefault("4000")
        int perReplica();

        /** PLATFORM_FEED_LIMITS_QUERIES: the feed's queries running at once (at most half the connection pool). */
        @WithDefault("4")
        int queries();
    }
}
