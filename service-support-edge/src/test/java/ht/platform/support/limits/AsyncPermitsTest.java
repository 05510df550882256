package ht.platform.support.limits;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsyncPermitsTest {

    @Test
    void atMostThePermitsRunTheRestWaitInOrderAndACancelledOneGivesUpItsPlace() {
        AsyncPermits permits = new AsyncPermits(2);
        List<CompletableFuture<String>> work = new ArrayList<>();
        List<Integer> started = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        List<Cancellable> running = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            CompletableFuture<String> piece = new CompletableFuture<>();
            work.add(piece);
            running.add(permits.run(() -> {
                started.add(n);
                return Uni.createFrom().completionStage(piece);
            }).subscribe().with(answers::add));
        }
        assertEquals(List.of(0, 1), started);
        assertEquals(2, permits.used());
        assertEquals(3, permits.queued());

        running.get(2).cancel(); // queued: leaves the queue, never runs
        assertEquals(2, permits.queued());
        work.get(0).complete("a");
        assertEquals(List.of(0, 1, 3), started, "the next in line, not the cancelled one");
        running.get(1).cancel(); // running: its permit goes on
        assertEquals(List.of(0, 1, 3, 4), started);
        work.get(3).completeExceptionally(new IllegalStateException("failed work releases too"));
        work.get(4).complete("e");
        assertEquals(List.of("a", "e"), answers);
        assertEquals(0, permits.used());
        assertEquals(0, permits.queued());
    }

    @Test
    void manyConcurrentCallersNeverExceedThePermits() throws Exception {
        AsyncPermits permits = new AsyncPermits(3);
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            done.add(permits.run(() -> Uni.createFrom().item(1).invoke(() -> most.accumulateAndGet(now.incrementAndGet(), Math::max))
                    .emitOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool())
                    .invoke(now::decrementAndGet)).replaceWithVoid().subscribeAsCompletionStage());
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(most.get() <= 3, "at most 3 at once: " + most.get());
        assertEquals(0, permits.used());
    }

    @Test
    void fullOnlyWhenEveryPermitIsUsedAndTheLineIsAsLongAsAllowed() {
        AsyncPermits permits = new AsyncPermits(1);
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        assertFalse(permits.full(1));
        permits.run(() -> Uni.createFrom().completionStage(first)).subscribe().with(x -> { });
        assertFalse(permits.full(1), "one may still queue");
        assertTrue(permits.full(0));
        permits.run(() -> Uni.createFrom().completionStage(second)).subscribe().with(x -> { });
        assertTrue(permits.full(1));
        first.complete("a");
        assertFalse(permits.full(1), "the queued one runs, the line is empty");
        second.complete("b");
    }
}
