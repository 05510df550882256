package ht.platform.support.feed;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stopping replica answers its held feed reads at once and holds no new one. */
class FeedWaitersTest {

    @Test
    void stopAnswersHeldReadsAndHoldsNoNewOne() {
        FeedWaiters waiters = new FeedWaiters();
        var held = waiters.register("wallet", "owner", "test").until(Duration.ofMinutes(5)).subscribeAsCompletionStage();
        assertEquals(1, waiters.held());
        waiters.stop();
        assertTrue(held.toCompletableFuture().orTimeout(2, java.util.concurrent.TimeUnit.SECONDS).join(), "woken");
        boolean woken = waiters.register("wallet", "owner", "test").until(Duration.ofMinutes(5)).await().atMost(Duration.ofSeconds(2));
        assertFalse(woken, "a read after the stop is answered as if its wait had passed");
        assertEquals(0, waiters.held());
    }
}
