package ht.platform.webhooks.cli;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link FeedListener} on a thread of its own, for a program or a test that embeds {@code listen}. */
public final class BackgroundListener {

    /** The status while the listener has not ended. */
    public static final int RUNNING = -1;

    private final FeedListener listener;
    private final Thread thread;
    private final AtomicInteger status = new AtomicInteger(RUNNING);

    private BackgroundListener(FeedListener listener) {
        this.listener = listener;
        this.thread = new Thread(() -> {
            try {
                status.set(listener.run());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "feed-listener");
        thread.setDaemon(true);
    }

    public static BackgroundListener start(FeedListener listener) {
        BackgroundListener started = new BackgroundListener(listener);
        started.thread.start();
        return started;
    }

    /** Stops the listener and waits for it to end, at most {@code max}; answers {@link #join}'s status. */
    public int stop(Duration max) throws InterruptedException {
        listener.stop();
        return join(max);
    }

    /** Waits at most {@code max} for the listener to end; answers its exit status, {@link #RUNNING} if it has not. */
    public int join(Duration max) throws InterruptedException {
        thread.join(Math.max(1, max.toMillis()));
        return thread.isAlive() ? RUNNING : status.get();
    }
}
