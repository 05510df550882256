package ht.platform.checkout.provider;

import ht.platform.rail.RailBreakers;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import ht.platform.rail.moncash.quarkus.MonCashRail;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Which rail serves which mode and method, and the circuit breaker in front of each rail. Test mode is served
 * only by the simulator; live mode by MonCash when {@code MONCASH_*} is configured, else by no rail at all.
 * A call that throws (network, timeout) counts against the breaker and is answered UNKNOWN: money may have moved.
 * MonCash's breaker is its client's own, which counts every HTTP exchange.
 */
@ApplicationScoped
public class PaymentRails {

    public record Method(PaymentMethodInfo info, PaymentProvider provider, boolean available) { }

    @Inject
    SimulatorProvider simulator;

    @Inject
    MonCashProvider moncash;

    @Inject
    MonCashRail moncashRail;

    @Inject
    Clock clock;

    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    public List<PaymentProvider> providers(String mode) {
        if ("test".equals(mode)) {
            return List.of(simulator);
        }
        return moncashRail.configured() ? List.of(moncash) : List.of();
    }

    public CircuitBreaker breaker(String providerName) {
        if (MonCashProvider.NAME.equals(providerName) && moncashRail.configured()) {
            return moncashRail.client().breaker();
        }
        return breakers.computeIfAbsent(providerName, n -> RailBreakers.of(n, clock));
    }

    public List<Method> methods(String mode, String currency) {
        List<Method> out = new ArrayList<>();
        for (PaymentProvider p : providers(mode)) {
            boolean healthy = RailBreakers.letsCallsThrough(breaker(p.name()));
            for (PaymentMethodInfo m : p.methods()) {
                if (currency == null || m.currencies().contains(currency)) {
                    out.add(new Method(m, p, healthy));
                }
            }
        }
        return out;
    }

    public Optional<Method> method(String mode, String methodId, String currency) {
        return methods(mode, currency).stream().filter(m -> m.info().id().equals(methodId)).findFirst();
    }

    public Optional<PaymentProvider> provider(String name) {
        if (simulator.name().equals(name)) {
            return Optional.of(simulator);
        }
        return moncash.name().equals(name) && moncashRail.configured() ? Optional.of(moncash) : Optional.empty();
    }

    /** Runs one call through the rail's breaker; a thrown failure becomes UNKNOWN. An UNKNOWN answer is no success. */
    public Uni<ProviderResult> call(PaymentProvider provider, Supplier<Uni<ProviderResult>> call) {
        CircuitBreaker breaker = breaker(provider.name());
        boolean counted = !(provider instanceof MonCashProvider);
        long started = System.nanoTime();
        Uni<ProviderResult> uni;
        try {
            uni = call.get();
        } catch (RuntimeException e) {
            uni = Uni.createFrom().failure(e);
        }
        return uni.invoke(r -> {
                    if (counted && r.status() != ProviderResult.Status.UNKNOWN) {
                        breaker.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                    }
                })
                .onFailure().recoverWithItem(e -> {
                    if (counted) {
                        breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, e);
                    }
                    return ProviderResult.unknown(e.getClass().getSimpleName());
                });
    }
}
