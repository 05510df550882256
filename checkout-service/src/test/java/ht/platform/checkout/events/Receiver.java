package ht.platform.checkout.events;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A real local webhook receiver: records every request and answers with the configured status. */
public final class Receiver implements AutoCloseable {

    public record Received(String path, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name.toLowerCase());
        }
    }

    final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    final AtomicInteger status = new AtomicInteger(200);
    /** When set, the exact bytes of every answer. */
    final java.util.concurrent.atomic.AtomicReference<byte[]> answer = new java.util.concurrent.atomic.AtomicReference<>();

    public Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
            received.add(new Received(exchange.getRequestURI().getPath(), headers, body));
            byte[] answer = this.answer.get() != null ? this.answer.get() : "{\"received\":true}".getBytes();
            exchange.sendResponseHeaders(status.get(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> of(String type) {
        return received.stream().filter(r -> type.equals(r.header("Checkout-Event-Type"))).toList();
    }

    /** Bounded polling for an asynchronous delivery (never a sleep for business time: the clock is moved instead). */
    public static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
