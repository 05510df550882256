package ht.platform.support.testing;

import ht.platform.support.time.MovableClock;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness between two tests: the clock the first moved is back to the real time, its receiver closed, a new one given. */
@ExtendWith(PlatformHarness.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlatformHarnessTest {

    /** Shared by the two tests, as a clock bean is shared by a service's tests. */
    static final MovableClock SHARED = new MovableClock(Clock.systemUTC());
    static Receiver first;
    static int firstPort;

    MovableClock clock = SHARED;
    Receiver receiver;

    @Test
    @Order(1)
    void aTestMovesTheClockAndUsesItsReceiver() {
        assertNotNull(receiver, "a receiver for the test");
        first = receiver;
        firstPort = receiver.port();
        clock.advance(Duration.ofDays(3));
        assertTrue(clock.instant().isAfter(Instant.now().plus(Duration.ofDays(2))));
    }

    @Test
    @Order(2)
    void theNextTestStartsOnTheRealTimeWithAFreshReceiver() {
        assertTrue(Duration.between(Instant.now(), clock.instant()).abs().compareTo(Duration.ofSeconds(5)) < 0,
                "the clock is back: " + clock.instant());
        assertNotNull(receiver);
        assertNotSame(first, receiver);
        if (receiver.port() != firstPort) { // the system could give the closed port to the new one
            assertThrows(ConnectException.class, () -> {
                try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), firstPort)) {
                    throw new IOException("the first test's receiver still answers");
                }
            });
        }
    }
}
