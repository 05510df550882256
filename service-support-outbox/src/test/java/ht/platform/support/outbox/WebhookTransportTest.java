package ht.platform.support.outbox;

import com.sun.net.httpserver.HttpServer;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebhookTransportTest {

    static Vertx vertx;
    static HttpServer receiver;
    static WebhookTransport transport;
    static WebhookTransport impatient;
    static final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        vertx = Vertx.vertx();
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newCachedThreadPool());
        receiver.createContext("/ok", ex -> {
            received.add(ex.getRequestHeaders().getFirst("X-Test") + "|" + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            reply(ex, 200, "thanks");
        });
        receiver.createContext("/redirect", ex -> {
            received.add("redirect");
            ex.getResponseHeaders().add("Location", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/ok");
            reply(ex, 302, "");
        });
        receiver.createContext("/error", ex -> reply(ex, 500, "x".repeat(5000)));
        receiver.createContext("/nul", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] bytes = {'o', 'k', 0, 'b', 'i', 'n', (byte) 0xC3, (byte) 0x28, 'y'};
            ex.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        });
        receiver.createContext("/hang", ex -> {
            try {
                Thread.sleep(5000);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            reply(ex, 200, "late");
        });
        receiver.start();
        transport = new WebhookTransport(vertx, settings(true, Duration.ofSeconds(30))); // generous: a loaded machine
        impatient = new WebhookTransport(vertx, settings(true, Duration.ofMillis(1000)));
    }

    @AfterAll
    static void stop() {
        receiver.stop(0);
        vertx.close();
    }

    static void reply(com.sun.net.httpserver.HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    static String url(String path) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
    }

    static SendResult send(String path) {
        return send(transport, path);
    }

    static SendResult send(WebhookTransport transport, String path) {
        return transport.send(url(path), Map.of("X-Test", "yes"), "{\"a\":1}".getBytes(StandardCharsets.UTF_8))
                .await().atMost(Duration.ofSeconds(35));
    }

    @Test
    void twoHundredIsSuccessAndTheRawBodyArrives() {
        SendResult result = send("/ok");
        assertTrue(result.success(), result.toString());
        assertEquals(200, result.statusCode());
        assertEquals("thanks", result.responseExcerpt());
        assertTrue(received.contains("yes|{\"a\":1}"));
    }

    @Test
    void redirectIsAFailureAndIsNotFollowed() {
        received.clear();
        SendResult result = send("/redirect");
        assertFalse(result.success());
        assertEquals(302, result.statusCode());
        assertEquals(List.of("redirect"), received);
    }

    @Test
    void serverErrorIsAFailureWithAnExcerptOfOneKibibyte() {
        SendResult result = send("/error");
        assertFalse(result.success());
        assertEquals(500, result.statusCode());
        assertEquals(1024, result.responseExcerpt().length());
    }

    @Test
    void aHangingReceiverTimesOut() {
        SendResult result = send(impatient, "/hang");
        assertFalse(result.success());
        assertNull(result.statusCode());
        assertTrue(result.error().startsWith("timeout"), result.error());
        assertTrue(result.latencyMillis() < 4000, "took " + result.latencyMillis());
    }

    @Test
    void aPrivateAddressIsRefusedAtSendTimeWhenPrivateTargetsAreNotAllowed() {
        received.clear();
        SendResult result = transport.send(new OutgoingUrlPolicy(false), url("/ok"), Map.of(), new byte[0])
                .await().atMost(Duration.ofSeconds(5));
        assertFalse(result.success());
        assertTrue(result.error().contains("NOT_ALLOWED"), result.error());
        assertTrue(received.isEmpty());
    }

    @Test
    void aHostThatDoesNotResolveIsAFailure() {
        SendResult result = transport.send(new OutgoingUrlPolicy(false), "https://localhost.example.invalid/hook", Map.of(), new byte[0])
                .await().atMost(Duration.ofSeconds(5));
        assertFalse(result.success());
    }

    @Test
    void anAnswerWithNulAndBrokenUtf8IsKeptAsStorableText() {
        SendResult result = send("/nul");
        assertTrue(result.success(), result.toString());
        String excerpt = result.responseExcerpt();
        assertFalse(excerpt.contains("\u0000"), "a NUL cannot be stored in a Postgres text column");
        assertTrue(excerpt.startsWith("ok\uFFFDbin\uFFFD"), excerpt);
        assertTrue(excerpt.endsWith("y"), excerpt);
    }

    @Test
    void aStallingResolverEndsTheSendWithinItsBudgetSoBeforeTheLease() {
        HostResolver stalls = host -> Uni.createFrom().emitter(e -> { }); // never answers
        WebhookSettings s = settings(false, Duration.ofMillis(800));
        WebhookTransport stalled = new WebhookTransport(vertx, s, stalls);
        long start = System.nanoTime();
        SendResult result = stalled.send("https://hooks.example.com/in", Map.of(), new byte[0])
                .await().atMost(Duration.ofSeconds(10));
        long took = (System.nanoTime() - start) / 1_000_000;
        assertFalse(result.success());
        assertTrue(result.error().contains("resolving hooks.example.com took longer than 800 ms"), result.error());
        assertTrue(took < s.lease().toMillis(), "the send outlived the lease: " + took + " ms");
        assertTrue(took < 800 + 700, "the resolution was not bounded by the send budget: " + took + " ms");
    }

    @Test
    void aRefusedAddressIsNeverNamedInTheError() throws Exception {
        InetAddress inside = InetAddress.getByAddress("hooks.example.com", new byte[] {10, 1, 2, 3});
        HostResolver internal = host -> Uni.createFrom().item(List.of(inside));
        WebhookTransport t = new WebhookTransport(vertx, settings(false, Duration.ofSeconds(2)), internal);
        SendResult result = t.send("https://hooks.example.com/in", Map.of(), new byte[0]).await().atMost(Duration.ofSeconds(5));
        assertFalse(result.success());
        assertTrue(result.error().contains("resolves to a private address"), result.error());
        assertFalse(result.error().contains("10.1.2.3"), result.error());
    }

    static WebhookSettings settings(boolean allowPrivate, Duration timeout) {
        return new WebhookSettings() {
            public boolean allowPrivateTargets() { return allowPrivate; }
            public Duration sendTimeout() { return timeout; }
            public Duration lease() { return timeout.multipliedBy(2); }
            public boolean deliver() { return true; }
            public int concurrency() { return 8; }
            public int maxInFlightPerDestination() { return 2; }
            public String userAgent() { return "test"; }
        };
    }
}
