package ht.platform.wallet.events;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/** A real local HTTP receiver for webhook deliveries: records every request, answers a chosen status. */
public final class Receiver implements AutoCloseable {

    public record Received(String path, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    public final List<Received> received = new CopyOnWriteArrayList<>();
    public final AtomicInteger status = new AtomicInteger(200);
    public final AtomicLong delayMillis = new AtomicLong();
    /** When set, the exact bytes of every answer (e.g. a NUL a database text column cannot keep). */
    public final java.util.concurrent.atomic.AtomicReference<byte[]> answer = new java.util.concurrent.atomic.AtomicReference<>();

    public Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
            received.add(new Received(exchange.getRequestURI().getPath(), headers, body));
            long delay = delayMillis.get();
            if (delay > 0) {
                try {
                    Thread.sleep(delay); // the receiver is slow on purpose (the sender's timeout is under test)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int code = status.get();
            if (code >= 300 && code < 400) {
                exchange.getResponseHeaders().add("Location", url() + "/target");
            }
            byte[] answer = this.answer.get() != null ? this.answer.get()
                    : ("{\"received\":true,\"status\":" + code + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(code, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            } catch (IOException ignored) {
                // the sender may have given up already
            }
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public List<Received> ofType(String type) {
        return received.stream().filter(r -> type.equals(r.header("X-Gateway-Event"))).toList();
    }

    /** Bounded polling for asynchronous delivery (never a sleep for time: the clock is moved instead). */
    public static void await(String what, Duration bound, BooleanSupplier condition) {
        long end = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
