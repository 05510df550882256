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
}
