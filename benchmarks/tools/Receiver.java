import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Webhook receiver for the benchmarks (single-file program: java Receiver.java PORT LOGFILE MAX_SECONDS).
 * Listens on 127.0.0.1:PORT only. Paths:
 *   /ok           200 at once           /ok?delay=MS   200 after MS milliseconds
 *   /slow         200 after 3 s         /hang          never answers (closed after 40 s)
 *   /redirect     302 to /ok            /fail          500
 *   GET /stats    {"total":..,"unique":..,"overlaps":..} for the /ok family
 * and on PORT+1 a raw socket that resets every connection (TCP RST, SO_LINGER 0).
 * Every request is logged as: arrival_epoch_micros TAB path TAB event_id TAB overlap(0|1) TAB signature_present.
 * "overlap" = another request for the same event id was still in progress when this one arrived.
 * Stops by itself after MAX_SECONDS.
 */
public class Receiver {

    static final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    static final Set<String> seen = ConcurrentHashMap.newKeySet();
    static final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();
    static final AtomicLong total = new AtomicLong();
    static final AtomicLong overlaps = new AtomicLong();
    static final AtomicLong other = new AtomicLong();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path log = Path.of(args[1]);
        long maxSeconds = Long.parseLong(args.length > 2 ? args[2] : "1800");
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        // Without TCP_NODELAY the JDK server holds the response body until the sender's delayed ACK (~40 ms): every
        // delivery would wait for it, and one-at-a-time delivery lanes would measure that wait instead of the sender.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(lo, port), 512);
        server.setExecutor(Executors.newFixedThreadPool(256));
        server.createContext("/", Receiver::handle);
        server.start();

        ServerSocket resetter = new ServerSocket(port + 1, 512, lo);
        Thread rt = new Thread(() -> {
            while (!resetter.isClosed()) {
                try (Socket s = resetter.accept()) {
                    s.setSoLinger(true, 0); // close() now sends RST
                    long at = micros();
                    lines.add(at + "\t/reset\t-\t0\t0");
                    other.incrementAndGet();
                } catch (IOException e) {
                    // closed
                }
            }
        }, "resetter");
        rt.setDaemon(true);
        rt.start();

        BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
        Runnable flush = () -> {
            try {
                String l;
                while ((l = lines.poll()) != null) {
                    out.write(l);
                    out.write('\n');
                }
                out.flush();
            } catch (IOException e) {
                System.err.println("log write failed: " + e);
            }
        };
        Thread hook = new Thread(() -> {
            synchronized (out) { flush.run(); }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        System.out.println("receiver ready on 127.0.0.1:" + port + " (reset on " + (port + 1) + ")");
        long deadline = System.currentTimeMillis() + maxSeconds * 1000;
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            synchronized (out) { flush.run(); }
        }
        System.out.println("receiver: time limit reached, stopping");
        server.stop(0);
        resetter.close();
        System.exit(0);
    }

    static long micros() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    static String eventId(HttpExchange ex) {
        for (String h : new String[] {"X-Gateway-Event-ID", "Checkout-Event-Id", "Kyc-Event-Id"}) {
            String v = ex.getRequestHeaders().getFirst(h);
            if (v != null) {
                return v;
            }
        }
        return "-";
    }

    static boolean signed(HttpExchange ex) {
        return ex.getRequestHeaders().getFirst("X-Gateway-Signature") != null
                || ex.getRequestHeaders().getFirst("Checkout-Signature") != null
                || ex.getRequestHeaders().getFirst("Kyc-Signature") != null;
    }

    static void handle(HttpExchange ex) throws IOException {
        long at = micros();
        String path = ex.getRequestURI().getPath();
        String query = ex.getRequestURI().getQuery();
        try (InputStream in = ex.getRequestBody()) {
            in.readAllBytes();
        }
        if (path.equals("/stats")) {
            byte[] b = ("{\"total\":" + total.get() + ",\"unique\":" + seen.size() + ",\"overlaps\":" + overlaps.get()
                    + ",\"other\":" + other.get() + "}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream os = ex.getResponseBody()) { os.write(b); }
            return;
        }
        String id = eventId(ex);
        boolean sig = signed(ex);
        try {
            switch (path) {
                case "/ok" -> {
                    int n = inFlight.merge(id, 1, Integer::sum);
                    boolean overlap = n > 1;
                    if (overlap) {
                        overlaps.incrementAndGet();
                    }
                    total.incrementAndGet();
                    seen.add(id);
                    lines.add(at + "\t/ok\t" + id + "\t" + (overlap ? 1 : 0) + "\t" + (sig ? 1 : 0));
                    try {
                        if (query != null && query.startsWith("delay=")) {
                            Thread.sleep(Long.parseLong(query.substring(6)));
                        }
                        reply(ex, 200, "{\"received\":true}");
                    } finally {
                        inFlight.computeIfPresent(id, (k, v) -> v <= 1 ? null : v - 1);
                    }
                }
                case "/slow" -> {
                    other.incrementAndGet();
                    lines.add(at + "\t/slow\t" + id + "\t0\t" + (sig ? 1 : 0));
                    Thread.sleep(3000);
                    reply(ex, 200, "{\"slow\":true}");
                }
                case "/hang" -> {
                    other.incrementAndGet();
                    lines.add(at + "\t/hang\t" + id + "\t0\t" + (sig ? 1 : 0));
                    Thread.sleep(40_000); // longer than the 10 s send timeout; bounded
                    ex.close();
                }
                case "/redirect" -> {
                    other.incrementAndGet();
                    lines.add(at + "\t/redirect\t" + id + "\t0\t" + (sig ? 1 : 0));
                    ex.getResponseHeaders().set("Location", "/ok");
                    reply(ex, 302, "");
                }
                case "/fail" -> {
                    other.incrementAndGet();
                    lines.add(at + "\t/fail\t" + id + "\t0\t" + (sig ? 1 : 0));
                    reply(ex, 500, "{\"error\":\"bench\"}");
                }
                default -> reply(ex, 404, "{}");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.close();
        }
    }

    static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            try (OutputStream os = ex.getResponseBody()) { os.write(b); }
        }
        ex.close();
    }
}
