package ht.platform.checkout.events;

import com.sun.net.httpserver.HttpServer;
import ht.platform.checkout.TestApi;
import ht.platform.support.outbox.WebhookSettings;
import ht.platform.support.testing.Waiting;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static ht.platform.checkout.TestApi.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One endpoint that answers slowly holds a bounded share of the sending slots and never stalls the others. */
@QuarkusTest
class SlowEndpointTest {

    static final int EVENTS = 30;

    @Inject
    WebhookSettings settings;

    HttpServer server;
    final AtomicInteger slowNow = new AtomicInteger();
    final AtomicInteger slowMax = new AtomicInteger();
    final AtomicInteger fastReceived = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/slow", ex -> {
            slowMax.accumulateAndGet(slowNow.incrementAndGet(), Math::max);
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                slowNow.decrementAndGet();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/fast", ex -> {
            fastReceived.incrementAndGet();
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aSlowEndpointHoldsAtMostItsShareAndTheOthersKeepReceiving() throws Exception {
        String key = TestApi.key(TestApi.application("Slow " + System.nanoTime()), "test", null);
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        as(key).body(Map.of("url", base + "/slow", "events", java.util.List.of("payment_intent.created")))
                .post("/api/v1/webhook_endpoints").then().statusCode(201);
        as(key).body(Map.of("url", base + "/fast", "events", java.util.List.of("payment_intent.created")))
                .post("/api/v1/webhook_endpoints").then().statusCode(201);
        for (int i = 0; i < EVENTS; i++) {
            TestApi.createIntent(key, "1.00");
        }
        Waiting.until("the fast endpoint to receive all " + EVENTS + " events behind the slow one", Duration.ofSeconds(8),
                () -> fastReceived.get() >= EVENTS);
        assertEquals(EVENTS, fastReceived.get());
        assertTrue(slowMax.get() <= settings.maxInFlightPerDestination(),
                "the slow endpoint had " + slowMax.get() + " deliveries in flight at once");
        assertTrue(slowMax.get() > 1, "deliveries to one endpoint still go out in parallel");
    }
}
