import java.io.BufferedWriter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
 *
 * One thread with a selector serves HTTP/1.1 (Content-Length bodies, keep-alive, TCP_NODELAY); the delayed answers
 * are timers that hand their response back to it. The receiver stands for a merchant's server, which in production
 * runs elsewhere: on the benchmark's 2 cores every CPU millisecond it spends is one the service under test does not
 * get, so it does no more than an HTTP server must (the JDK's HttpServer took ~0.2 ms of CPU per request: a thread
 * hop and a selector re-registration each).
 */
public class Receiver {

    static final Map<String, Integer> inFlight = new HashMap<>();
    static final Set<String> seen = new HashSet<>();
    static long total;
    static long overlaps;
    static long other;
    static final StringBuilder lines = new StringBuilder(1 << 16);
    /** Set when the process stops: nothing more is logged, so nothing more is answered. */
    static boolean logClosed;

    /** Work the timers hand back to the selector thread. */
    static final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    static Selector selector;
    static final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "timers");
        t.setDaemon(true);
        return t;
    });

    static final class Conn {
        final SocketChannel ch;
        ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        ByteBuffer out;
        boolean busy;        // a request is being answered: read nothing more until it is
        boolean closeAfter;
        Conn(SocketChannel ch) { this.ch = ch; }
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path log = Path.of(args[1]);
        long maxSeconds = Long.parseLong(args.length > 2 ? args[2] : "1800");
        InetAddress lo = InetAddress.getByName("127.0.0.1");

        ServerSocket resetter = new ServerSocket(port + 1, 512, lo);
        Thread rt = new Thread(() -> {
            while (!resetter.isClosed()) {
                try (Socket s = resetter.accept()) {
                    s.setSoLinger(true, 0); // close() now sends RST
                    long at = micros();
                    tasks.add(() -> {
                        lines.append(at).append("\t/reset\t-\t0\t0\n");
                        other++;
                    });
                    selector.wakeup();
                } catch (IOException e) {
                    // closed
                }
            }
        }, "resetter");
        rt.setDaemon(true);

        selector = Selector.open();
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(lo, port), 512);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        rt.start();

        BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // a request answered after the last write would be an acknowledged delivery missing from the log
            synchronized (lines) {
                logClosed = true;
            }
            writeLog(out);
        }));
        System.out.println("receiver ready on 127.0.0.1:" + port + " (reset on " + (port + 1) + ")");
        long deadline = System.currentTimeMillis() + maxSeconds * 1000;
        long nextFlush = System.currentTimeMillis() + 200;
        while (System.currentTimeMillis() < deadline) {
            selector.select(200);
            for (Runnable r; (r = tasks.poll()) != null; ) {
                r.run();
            }
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                try {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        SocketChannel ch;
                        while ((ch = server.accept()) != null) {
                            ch.configureBlocking(false);
                            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                            ch.register(selector, SelectionKey.OP_READ, new Conn(ch));
                        }
                    } else if (key.isWritable()) {
                        flushOut(key, (Conn) key.attachment());
                    } else if (key.isReadable()) {
                        read(key, (Conn) key.attachment());
                    }
                } catch (IOException e) {
                    close(key);
                }
            }
            long now = System.currentTimeMillis();
            if (now >= nextFlush) {
                nextFlush = now + 200;
                writeLog(out);
            }
        }
        System.out.println("receiver: time limit reached, stopping");
        resetter.close();
        System.exit(0);
    }

    /** Appends the lines logged so far to the log file (every 200 ms and at exit). */
    static void writeLog(BufferedWriter out) {
        synchronized (lines) {
            if (lines.length() == 0) {
                return;
            }
            try {
                out.write(lines.toString());
                lines.setLength(0);
                out.flush();
            } catch (IOException e) {
                System.err.println("log write failed: " + e);
            }
        }
    }

    static void read(SelectionKey key, Conn c) throws IOException {
        if (!c.in.hasRemaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(c.in.capacity() * 2);
            c.in.flip();
            bigger.put(c.in);
            c.in = bigger;
        }
        int n = c.ch.read(c.in);
        if (n < 0) {
            close(key);
            return;
        }
        if (!c.busy) {
            parse(key, c);
        }
    }

    /** One complete request in the buffer is answered; the rest waits for more bytes. */
    static void parse(SelectionKey key, Conn c) throws IOException {
        byte[] a = c.in.array();
        int len = c.in.position();
        int end = headerEnd(a, len);
        if (end < 0) {
            return;
        }
        long at = micros();
        String head = new String(a, 0, end, StandardCharsets.ISO_8859_1);
        String[] headLines = head.split("\r\n");
        String[] requestLine = headLines[0].split(" ");
        String target = requestLine.length > 1 ? requestLine[1] : "/";
        int contentLength = 0;
        String id = null;
        boolean sig = false;
        boolean close = false;
        for (int i = 1; i < headLines.length; i++) {
            String l = headLines[i];
            int colon = l.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = l.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Integer.parseInt(value);
                case "x-gateway-event-id", "checkout-event-id", "kyc-event-id" -> id = id == null ? value : id;
                case "x-gateway-signature", "checkout-signature", "kyc-signature" -> sig = true;
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        int total = end + 4 + contentLength;
        if (len < total) {
            return; // the body is still arriving
        }
        // what follows this request (a pipelined one) stays in the buffer
        c.in.flip();
        c.in.position(total);
        c.in.compact();
        c.busy = true;
        c.closeAfter = close;
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? null : target.substring(q + 1);
        answer(key, c, path, query, id == null ? "-" : id, sig, at);
    }

    static void answer(SelectionKey key, Conn c, String path, String query, String id, boolean sig, long at)
            throws IOException {
        String s = sig ? "1" : "0";
        switch (path) {
            case "/stats" -> reply(key, c, 200, "{\"total\":" + total + ",\"unique\":" + seen.size() + ",\"overlaps\":"
                    + overlaps + ",\"other\":" + other + "}", null);
            case "/ok" -> {
                int n = inFlight.merge(id, 1, Integer::sum);
                boolean overlap = n > 1;
                if (!log(at, "/ok", id, overlap ? "1" : "0", s)) {
                    close(key); // stopping: unanswered, as a receiver that went away
                    return;
                }
                if (overlap) {
                    overlaps++;
                }
                total++;
                seen.add(id);
                long delay = query != null && query.startsWith("delay=") ? Long.parseLong(query.substring(6)) : 0;
                Runnable done = () -> {
                    inFlight.computeIfPresent(id, (k, v) -> v <= 1 ? null : v - 1);
                    reply(key, c, 200, "{\"received\":true}", null);
                };
                later(delay, done);
            }
            case "/slow" -> {
                other++;
                log(at, "/slow", id, "0", s);
                later(3000, () -> reply(key, c, 200, "{\"slow\":true}", null));
            }
            case "/hang" -> {
                other++;
                log(at, "/hang", id, "0", s);
                later(40_000, () -> close(key)); // longer than the 10 s send timeout; bounded
            }
            case "/redirect" -> {
                other++;
                log(at, "/redirect", id, "0", s);
                reply(key, c, 302, "", "Location: /ok\r\n");
            }
            case "/fail" -> {
                other++;
                log(at, "/fail", id, "0", s);
                reply(key, c, 500, "{\"error\":\"bench\"}", null);
            }
            default -> reply(key, c, 404, "{}", null);
        }
    }

    /** At once on this thread, or after {@code ms} back on this thread. */
    static void later(long ms, Runnable r) {
        if (ms <= 0) {
            r.run();
            return;
        }
        timers.schedule(() -> {
            tasks.add(r);
            selector.wakeup();
        }, ms, TimeUnit.MILLISECONDS);
    }

    /** False once the process is stopping (nothing is logged then). */
    static boolean log(long at, String path, String id, String overlap, String sig) {
        synchronized (lines) {
            if (logClosed) {
                return false;
            }
            lines.append(at).append('\t').append(path).append('\t').append(id).append('\t').append(overlap)
                    .append('\t').append(sig).append('\n');
            return true;
        }
    }

    static void reply(SelectionKey key, Conn c, int status, String body, String extraHeaders) {
        if (!key.isValid()) {
            return;
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String reason = switch (status) {
            case 200 -> "OK";
            case 302 -> "Found";
            case 404 -> "Not Found";
            default -> "Internal Server Error";
        };
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/json\r\nContent-Length: "
                + b.length + "\r\n" + (extraHeaders == null ? "" : extraHeaders)
                + (c.closeAfter ? "Connection: close\r\n" : "") + "\r\n";
        byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buf = ByteBuffer.allocate(h.length + b.length);
        buf.put(h).put(b).flip();
        c.out = buf;
        try {
            flushOut(key, c);
        } catch (IOException e) {
            close(key);
        }
    }

    static void flushOut(SelectionKey key, Conn c) throws IOException {
        c.ch.write(c.out);
        if (c.out.hasRemaining()) {
            key.interestOps(SelectionKey.OP_WRITE);
            return;
        }
        c.out = null;
        c.busy = false;
        if (c.closeAfter) {
            close(key);
            return;
        }
        key.interestOps(SelectionKey.OP_READ);
        if (c.in.position() > 0) {
            parse(key, c); // a request that arrived while this one was answered
        }
    }

    static void close(SelectionKey key) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException e) {
            // gone already
        }
    }

    static int headerEnd(byte[] a, int len) {
        for (int i = 3; i < len; i++) {
            if (a[i] == '\n' && a[i - 1] == '\r' && a[i - 2] == '\n' && a[i - 3] == '\r') {
                return i - 3;
            }
        }
        return -1;
    }

    static long micros() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }
}
