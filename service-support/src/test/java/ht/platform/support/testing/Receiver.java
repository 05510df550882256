package ht.platform.support.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A real local HTTP receiver for the webhook deliveries of every service: records every request (path, headers,
 * exact body), answers a chosen status after a chosen delay, with chosen bytes.
 */
public final class Receiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as it arrived; header names are case-insensitive. */
    public record Received(String path, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The envelope's {@code type}, or null when the body is not a JSON object with one. */
        public String type() {
            try {
                JsonNode type = JSON.readTree(body).get("type");
                return type == null ? null : type.asText();
            } catch (IOException e) {
                return null;
            }
        }
    }

    private final HttpServer server;
    public final List<Received> received = new CopyOnWriteArrayList<>();
    public final AtomicInteger status = new AtomicInteger(200);
    public final AtomicLong delayMillis = new AtomicLong();
    /** When set, the exact bytes of every answer (e.g. a NUL a database text column cannot keep). */
    public final AtomicReference<byte[]> answer = new AtomicReference<>();

    /** Answers {@code status} with "ok", a NUL byte (which Postgres text cannot keep) and "binary". */
    public void answerWithNul(int status) {
        this.status.set(status);
        answer.set("ok\0binary".getBytes(StandardCharsets.ISO_8859_1));
    }

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
        return url("/hooks");
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The requests whose envelope has this {@code type}. */
    public List<Received> ofType(String type) {
        return received.stream().filter(r -> type.equals(r.type())).toList();
    }

    /** The first request matching, waiting up to {@link Waiting#BOUND} for it. */
    public Received await(Predicate<Received> match) {
        return Waiting.until("a matching delivery",
                () -> received.stream().filter(match).findFirst(), java.util.Optional::isPresent).get();
    }

    /** Bounded waiting for asynchronous delivery (never a sleep for time: the clock is moved instead). */
    public static void await(String what, Duration bound, BooleanSupplier condition) {
        Waiting.until(what, bound, condition);
    }

    /** {@link #await(String, Duration, BooleanSupplier)} within {@link Waiting#BOUND}. */
    public static void await(BooleanSupplier condition, String what) {
        Waiting.until(what, condition);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
