package ht.platform.support.limits;

import io.smallrye.mutiny.Uni;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * At most {@code permits} pieces of asynchronous work at once, the others queued in arrival order; nothing blocks a
 * thread. A piece cancelled while queued gives up its place; one cancelled or ended after it started hands its permit
 * to the next in the queue.
 */
public final class AsyncPermits {

    private final class Ticket {
        final CompletableFuture<Void> granted = new CompletableFuture<>();
        boolean queued;
        boolean done;
    }

    private final int permits;
    private final ArrayDeque<Ticket> queue = new ArrayDeque<>();
    private int used;

    public AsyncPermits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1");
        }
        this.permits = permits;
    }

    public <T> Uni<T> run(Supplier<Uni<T>> work) {
        return run(work, Integer.MAX_VALUE, null);
    }

    /**
     * As {@link #run(Supplier)}, but when {@code maxQueued} pieces already wait, fails with {@code refusal}'s exception
     * at once instead of queueing.
     */
    public <T> Uni<T> run(Supplier<Uni<T>> work, int maxQueued, Supplier<? extends RuntimeException> refusal) {
        return Uni.createFrom().deferred(() -> {
            Ticket ticket = acquire(maxQueued);
            if (ticket == null) {
                return Uni.createFrom().failure(refusal.get());
            }
            return Uni.createFrom().completionStage(ticket.granted).chain(granted -> work.get())
                    .onTermination().invoke(() -> release(ticket));
        });
    }

    /** The most work that runs at once. */
    public int capacity() {
        return permits;
    }

    /** Whether {@link #run(Supplier, int, Supplier)} with {@code maxQueued} would refuse now. */
    public synchronized boolean full(int maxQueued) {
        return used >= permits && queue.size() >= maxQueued;
    }

    /** Work running now (for tests and gauges). */
    public synchronized int used() {
        return used;
    }

    /** Work waiting for a permit (for tests and gauges). */
    public synchronized int queued() {
        return queue.size();
    }

    private Ticket acquire(int maxQueued) {
        Ticket ticket = new Ticket();
        synchronized (this) {
            if (used >= permits) {
                if (queue.size() >= maxQueued) {
                    return null;
                }
                ticket.queued = true;
                queue.add(ticket);
                return ticket;
            }
            used++;
        }
        ticket.granted.complete(null);
        return ticket;
    }

    private void release(Ticket ticket) {
        Ticket next;
        synchronized (this) {
            if (ticket.done) {
                return;
            }
            ticket.done = true;
            if (ticket.queued) {
                queue.remove(ticket);
                return;
            }
            next = queue.poll();
            if (next == null) {
                used--;
                return;
            }
            next.queued = false;
        }
        next.granted.complete(null); // the permit is next's now, also if it was cancelled meanwhile (its release passes it on)
    }
}
