package ht.platform.support.testing;

import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.outbox.DeliveryRunner;
import io.quarkus.arc.Arc;

import java.time.Duration;

/**
 * Deterministic delivery for tests: {@link #drainUntilIdle} returns only once nothing is due and the background loop
 * holds no send (every attempt made so far is recorded). Only then may a test move its clock: moving it while a send
 * is in flight would end that send's lease, or record its attempt, on the moved clock.
 */
public final class Deliveries {

    private static final Duration BOUND = Duration.ofSeconds(30);

    private Deliveries() { }

    /** {@link #drainUntilIdle(DeliveryRunner, DeliveryPolicy)} with the service's runner and policy (in a {@code @QuarkusTest}). */
    public static int drainUntilIdle() {
        return drainUntilIdle(Arc.container().instance(DeliveryRunner.class).get(),
                Arc.container().instance(DeliveryPolicy.class).get());
    }

    /** Drains until a drain finds nothing due and the background loop is idle; answers the attempts this drain made. */
    public static int drainUntilIdle(DeliveryRunner runner, DeliveryPolicy policy) {
        int made = 0;
        while (true) {
            int sent = runner.drain(policy).await().atMost(BOUND);
            made += sent;
            // a send the background loop claimed first (the drain skipped it) is recorded before this returns
            Waiting.await("the " + policy.name() + " delivery loop idle", BOUND).pollInterval(Duration.ofMillis(5))
                    .until(() -> runner.idle(policy));
            if (sent == 0) {
                return made;
            }
        }
    }
}
