package ht.platform.support.testing;

import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Starts the MonCash stand-in (a real HTTP server on a free loopback port) and points the service's live rail at it,
 * with short timeouts so that a slow answer is an unknown outcome within a test. Tests reach the stand-in through
 * {@link #sandbox()} to pay, move its clock and inject failures.
 */
public class MonCashStandIn implements QuarkusTestResourceLifecycleManager {

    public static final String CLIENT_ID = "standin-client";
    public static final String CLIENT_SECRET = "standin-secret-never-logged";

    private static volatile MonCashSandbox sandbox;

    /** A test profile with the live MonCash rail configured; the classes using it share one application. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(MonCashStandIn.class));
        }
    }

    public static MonCashSandbox sandbox() {
        return sandbox;
    }

    /**
     * Sets the stand-in back after a test that moved it: payments show at once, the merchant's balance is ample, the
     * wallet {@code withRoom} takes transfers, its clock is now, and no token it issued is honoured (set back, its clock
     * would honour one issued in its future).
     */
    public static void setBack(String withRoom) {
        sandbox.showPaymentsAfter(Duration.ZERO);
        sandbox.prefundedBalance(new BigDecimal("100000"));
        sandbox.walletWithRoom(withRoom);
        sandbox.at(Instant.now());
        sandbox.revokeAccessTokens();
    }

    @Override
    public Map<String, String> start() {
        try {
            sandbox = MonCashSandbox.start(0, CLIENT_ID, CLIENT_SECRET, URI.create("http://localhost/not-yet-known"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return Map.of("moncash.api-base", sandbox.apiBase(), "moncash.gateway-base", sandbox.gatewayBase(),
                "moncash.client-id", CLIENT_ID, "moncash.client-secret", CLIENT_SECRET,
                "moncash.connect-timeout", "PT2S", "moncash.timeout", "PT2S");
    }

    @Override
    public void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }
}
