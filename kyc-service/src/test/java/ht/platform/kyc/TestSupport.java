package ht.platform.kyc;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Runs reactive service code from a test thread on a fresh safe Vert.x context, and waits for it. */
public final class TestSupport {

    private TestSupport() { }

    public static <T> T await(Uni<T> uni) {
        return run(() -> uni);
    }

    public static <T> T run(Supplier<Uni<T>> work) {
        Vertx vertx = io.quarkus.arc.Arc.container().instance(Vertx.class).get();
        CompletableFuture<T> future = new CompletableFuture<>();
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(v -> work.get().subscribe().with(future::complete, future::completeExceptionally));
        try {
            return future.get(Duration.ofSeconds(30).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
