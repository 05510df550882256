package ht.platform.support.outbox;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/**
 * Runs reactive database work on its own safe duplicated Vert.x context, so that work started from a
 * scheduler, a LISTEN callback or an HTTP client callback gets its own Hibernate Reactive session and
 * concurrent pieces never share one session.
 */
public final class FreshContext {

    private FreshContext() { }

    public static <T> Uni<T> run(Vertx vertx, Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(v -> {
                try {
                    work.get().subscribe().with(emitter::complete, emitter::fail);
                } catch (Throwable e) {
                    emitter.fail(e);
                }
            });
        });
    }
}
