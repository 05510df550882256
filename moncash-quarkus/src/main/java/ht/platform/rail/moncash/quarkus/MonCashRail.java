package ht.platform.rail.moncash.quarkus;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

import ht.platform.rail.moncash.MonCashClient;
import ht.platform.rail.moncash.MonCashConfig;
import ht.platform.rail.moncash.MonCashException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The MonCash client as both services use it: configured from {@link MonCashSettings} (absent when unset), its calls
 * turned into {@link Uni}s that complete back on the caller's Vert.x context (so the caller can go on with
 * Hibernate Reactive), never blocking an event loop: the client's I/O runs on its own small pool.
 */
@ApplicationScoped
@Startup // its metrics exist from the start, at 0 without a rail
public class MonCashRail {

    private static final Logger LOG = Logger.getLogger(MonCashRail.class);

    private final Optional<MonCashClient> client;

    @Inject
    public MonCashRail(MonCashSettings settings, Clock clock, MeterRegistry registry) {
        Optional<MonCashConfig> config = MonCashConfig.of(settings.apiBase().orElse(null), settings.gatewayBase().orElse(null),
                settings.clientId().orElse(null), settings.clientSecret().orElse(null), settings.connectTimeout(),
                settings.timeout());
        this.client = config.map(c -> new MonCashClient(c, clock));
        config.ifPresentOrElse(c -> LOG.infof("live MonCash rail: %s", c.apiBase()),
                () -> LOG.info("no live MonCash rail (MONCASH_* unset)"));
        meter(registry);
    }

    /**
     * {@code rail_breaker_open{rail="moncash"}} (1 while the breaker holds calls back, half-open included) and
     * {@code rail_calls_total{rail="moncash",outcome}} (success, failure, not_permitted), from the breaker's events;
     * both present, at 0, when no rail is configured.
     */
    private void meter(MeterRegistry registry) {
        Gauge.builder("rail_breaker_open", this, r -> r.client.map(c -> c.breaker().getState())
                        .map(s -> s == CircuitBreaker.State.OPEN || s == CircuitBreaker.State.HALF_OPEN || s == CircuitBreaker.State.FORCED_OPEN ? 1 : 0)
                        .orElse(0))
                .tag("rail", "moncash").description("1 while the rail's circuit breaker holds calls back").register(registry);
        Counter ok = calls(registry, "success");
        Counter failed = calls(registry, "failure");
        Counter refused = calls(registry, "not_permitted");
        client.ifPresent(c -> c.breaker().getEventPublisher()
                .onSuccess(e -> ok.increment())
                .onError(e -> failed.increment())
                .onCallNotPermitted(e -> refused.increment()));
    }

    private static Counter calls(MeterRegistry registry, String outcome) {
        return Counter.builder("rail_calls").tag("rail", "moncash").tag("outcome", outcome)
                .description("Calls through the rail's circuit breaker, by outcome").register(registry);
    }

    public boolean configured() {
        return client.isPresent();
    }

    /** Configured and its breaker closed. */
    public boolean available() {
        return client.map(MonCashClient::available).orElse(false);
    }

    public MonCashClient client() {
        return client.orElseThrow(() -> new MonCashException(MonCashException.Kind.NOT_SENT, 0, "no live MonCash rail is configured"));
    }

    /** Runs one client call; the Uni completes on the caller's context with the answer or the {@link MonCashException}. */
    public <T> Uni<T> call(Function<MonCashClient, CompletableFuture<T>> call) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = Vertx.currentContext();
            CompletableFuture<T> f;
            try {
                f = call.apply(client());
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((value, error) -> {
                Runnable done = () -> {
                    if (error != null) {
                        emitter.fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
                    } else {
                        emitter.complete(value);
                    }
                };
                if (context != null) {
                    context.runOnContext(v -> done.run());
                } else {
                    done.run();
                }
            });
        });
    }

    @PreDestroy
    void close() {
        client.ifPresent(MonCashClient::close);
    }
}
