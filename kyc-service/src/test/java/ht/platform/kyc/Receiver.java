package ht.platform.kyc;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** A real local webhook receiver: records every request, answers the configured status. */
public final class Receiver implements AutoCloseable {

    public record Hit(Map<String, String> headers, String body) { }

    private final HttpServer server;
    public final List<Hit> hits = new CopyOnWriteArrayList<>();
    public final AtomicInteger status = new AtomicInteger(200);
    /** When set, the exact bytes of every answer. */
    public final java.util.concurrent.atomic.AtomicReference<byte[]> answer = new java.util.concurrent.atomic.AtomicReference<>();

    public Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.get(0)));
            hits.add(new Hit(headers, new String(body, StandardCharsets.UTF_8)));
            byte[] answer = this.answer.get() != null ? this.answer.get() : "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    public Hit await(Predicate<Hit> match) {
        long until = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < until) {
            for (Hit h : hits) {
                if (match.test(h)) {
                    return h;
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        throw new AssertionError("no matching delivery within 10 s; got " + hits.size());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
