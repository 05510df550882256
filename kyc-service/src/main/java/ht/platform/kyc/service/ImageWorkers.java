package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The bounded pool that decodes images, reads documents and compares faces, never on the event loop: a fixed number
 * of workers and a short queue, so N uploads in flight cost at most N decoded images; when both are full the
 * caller is answered 503 with Retry-After instead of being queued without bound.
 */
@ApplicationScoped
public class ImageWorkers {

    @Inject
    KycSettings settings;

    private ThreadPoolExecutor executor;

    @PostConstruct
    void start() {
        KycSettings.Images images = settings.images();
        AtomicInteger n = new AtomicInteger();
        executor = new ThreadPoolExecutor(images.workers(), images.workers(), 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(images.queue()), r -> {
                    Thread t = new Thread(r, "kyc-image-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    /** Runs {@code work} on the pool and answers on the caller's Vert.x context (so a transaction can follow). */
    public <T> Uni<T> run(Supplier<T> work) {
        Context context = Vertx.currentContext();
        Uni<T> result = Uni.createFrom().emitter(emitter -> {
            try {
                executor.execute(() -> {
                    try {
                        emitter.complete(work.get());
                    } catch (Throwable e) {
                        emitter.fail(e);
                    }
                });
            } catch (RejectedExecutionException e) {
                emitter.fail(busy());
            }
        });
        return context == null ? result : result.emitOn(task -> context.runOnContext(x -> task.run()));
    }

    public static ApiException busy() {
        return new ApiException(503, "BUSY", "Too many photos are being checked right now; try again in a few seconds",
                null, Map.of("Retry-After", "5"));
    }
}
