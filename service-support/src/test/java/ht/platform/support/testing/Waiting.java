package ht.platform.support.testing;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ThrowingRunnable;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The tests' one way to wait for something asynchronous (a delivery, a row, a process), on Awaitility: a bound, a
 * short poll in the test's own thread, and the name of what was awaited in the failure. Time itself is never waited
 * for: the clock is moved instead ({@link PlatformHarness}).
 */
public final class Waiting {

    /** Enough on a loaded 2-core machine; a condition met sooner ends the wait sooner. */
    public static final Duration BOUND = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(20);

    private Waiting() { }

    /** Awaitility's wait for {@code what}, within {@code bound}. */
    public static ConditionFactory await(String what, Duration bound) {
        return Awaitility.await(what).atMost(bound).pollDelay(Duration.ZERO).pollInterval(POLL).pollInSameThread();
    }

    /** Awaitility's wait for {@code what}, within {@link #BOUND}. */
    public static ConditionFactory await(String what) {
        return await(what, BOUND);
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, BOUND, condition);
    }

    public static void until(String what, Duration bound, BooleanSupplier condition) {
        await(what, bound).until(condition::getAsBoolean);
    }

    /** The first value {@code read} answers that {@code done} accepts. */
    public static <T> T until(String what, Callable<T> read, Predicate<? super T> done) {
        return await(what).until(read, done::test);
    }

    /**
     * Whether the condition became true within {@code bound}, for a test that asserts next with a fuller message
     * (counts, a log's tail) than a timeout could give.
     */
    public static boolean reached(Duration bound, BooleanSupplier condition) {
        try {
            await("", bound).until(condition::getAsBoolean);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** Until the assertions pass; the last failure is the one reported. */
    public static void untilAsserted(String what, ThrowingRunnable assertions) {
        await(what).untilAsserted(assertions);
    }

    /**
     * "Nothing happens": the assertions hold for the whole of {@code during} (checked again and again), and a
     * single failure fails the test at once.
     */
    public static void holdsFor(String what, Duration during, ThrowingRunnable assertions) {
        Awaitility.await(what).during(during).atMost(during.plusSeconds(1)).pollDelay(Duration.ZERO).pollInterval(POLL)
                .pollInSameThread().failFast(what, assertions).untilAsserted(assertions);
    }
}
