import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Open-model load at a fixed rate (single-file program, JDK only): request i is due at start + i/RATE whether or not
 * earlier ones have been answered, and its latency is measured from that due time, so a stalled service shows up in
 * the percentiles instead of slowing the generator down (no coordinated omission). One selector thread drives
 * CONNECTIONS keep-alive HTTP/1.1 connections; a due request waits for a free connection and that wait counts.
 * <p>Usage: java OpenLoad.java URL KEY MODE RATE SECONDS WARMUP_SECONDS CONNECTIONS OUT_PROPERTIES NAME
 * <ul>
 *   <li>MODE {@code GET:<ids file>}: GET URL+id, cycling over the ids (one per line; a header line {@code id} is skipped);</li>
 *   <li>MODE {@code POST:<body template>}: POST URL with the body ({@code {n}} = a unique sequence) and a fresh
 *       {@code Idempotency-Key}.</li>
 * </ul>
 * Writes NAME_ok, NAME_ko, NAME_rps (answered per second of the measured phase), NAME_p50/p95/p99/max (ms, one
 * decimal), NAME_backlog_max (most requests ever waiting for a connection). Requests of the warm-up are not counted.
 */
public class OpenLoad {
    static final byte[] CRLF2 = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    final String host;
    final int port;
    final String path;
    final String key;
    final List<String> ids;
    final String bodyTemplate;
    final String run = Long.toString(System.currentTimeMillis(), 36);
    long seq;

    OpenLoad(URI uri, String key, String mode) throws IOException {
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.path = uri.getRawPath();
        this.key = key;
        if (mode.startsWith("GET:")) {
            ids = Files.readAllLines(Path.of(mode.substring(4))).stream().filter(l -> !l.isBlank() && !l.equals("id")).toList();
            bodyTemplate = null;
        } else if (mode.startsWith("POST:")) {
            ids = null;
            bodyTemplate = mode.substring(5);
        } else {
            throw new IllegalArgumentException("MODE is GET:<ids file> or POST:<body>");
        }
    }

    byte[] nextRequest() {
        long n = ++seq;
        StringBuilder r = new StringBuilder(256);
        if (ids != null) {
            r.append("GET ").append(path).append(ids.get((int) (n % ids.size()))).append(" HTTP/1.1\r\n");
            r.append("Host: ").append(host).append(':').append(port).append("\r\n");
            r.append("Authorization: Bearer ").append(key).append("\r\nAccept: application/json\r\n\r\n");
            return r.toString().getBytes(StandardCharsets.UTF_8);
        }
        byte[] body = bodyTemplate.replace("{n}", "o-" + run + "-" + n).getBytes(StandardCharsets.UTF_8);
        r.append("POST ").append(path).append(" HTTP/1.1\r\n");
        r.append("Host: ").append(host).append(':').append(port).append("\r\n");
        r.append("Authorization: Bearer ").append(key).append("\r\nAccept: application/json\r\n");
        r.append("Content-Type: application/json\r\nIdempotency-Key: open-").append(run).append('-').append(n).append("\r\n");
        r.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] head = r.toString().getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** One keep-alive connection: at most one request in flight. */
    final class Conn {
        SocketChannel ch;
        SelectionKey sk;
        ByteBuffer out;
        final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        long dueNanos = -1;
        long index = -1; // of the request in flight, -1 when idle

        void open(Selector sel) throws IOException {
            ch = SocketChannel.open();
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.connect(new InetSocketAddress(host, port));
            ch.configureBlocking(false);
            sk = ch.register(sel, 0, this);
            in.clear();
            dueNanos = -1;
            index = -1;
        }

        void send(byte[] request, long due, long i) throws IOException {
            dueNanos = due;
            index = i;
            out = ByteBuffer.wrap(request);
            ch.write(out);
            sk.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE | SelectionKey.OP_READ : SelectionKey.OP_READ);
        }

        /** -1 while the answer is incomplete, otherwise the status code; the buffer keeps nothing afterwards. */
        int answer() {
            int headEnd = indexOf(in, CRLF2);
            if (headEnd < 0) {
                return -1;
            }
            String head = new String(in.array(), 0, headEnd, StandardCharsets.ISO_8859_1);
            int status = Integer.parseInt(head.substring(9, 12));
            String lower = head.toLowerCase(Locale.ROOT);
            int cl = lower.indexOf("\r\ncontent-length:");
            int bodyStart = headEnd + 4;
            if (cl >= 0) {
                int eol = lower.indexOf("\r\n", cl + 2);
                int length = Integer.parseInt(lower.substring(cl + 17, eol < 0 ? lower.length() : eol).trim());
                if (in.position() < bodyStart + length) {
                    return -1;
                }
            } else if (lower.contains("\r\ntransfer-encoding: chunked")) {
                if (indexOf(in, "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)) < 0) {
                    return -1;
                }
            }
            in.clear();
            return status;
        }
    }

    static int indexOf(ByteBuffer buf, byte[] needle) {
        byte[] a = buf.array();
        outer:
        for (int i = 0; i + needle.length <= buf.position(); i++) {
            for (int j = 0; j < needle.length; j++) {
                if (a[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    public static void main(String[] a) throws Exception {
        URI uri = URI.create(a[0]);
        OpenLoad load = new OpenLoad(uri, a[1], a[2]);
        double rate = Double.parseDouble(a[3]);
        long seconds = Long.parseLong(a[4]);
        long warmup = Long.parseLong(a[5]);
        int connections = Integer.parseInt(a[6]);
        Path outFile = Path.of(a[7]);
        String name = a[8];
        String result = load.drive(rate, seconds, warmup, connections, name);
        Files.writeString(outFile, result);
        System.out.print(result);
    }

    String drive(double rate, long seconds, long warmup, int connections, String name) throws IOException {
        Selector sel = Selector.open();
        ArrayDeque<Conn> idle = new ArrayDeque<>();
        for (int i = 0; i < connections; i++) {
            Conn c = new Conn();
            c.open(sel);
            idle.add(c);
        }
        long total = (long) Math.ceil(rate * (warmup + seconds));
        long measuredFrom = (long) Math.ceil(rate * warmup); // index of the first measured request
        int[] micros = new int[(int) Math.max(1, total - measuredFrom)];
        int measured = 0;
        long ko = 0;
        ArrayDeque<long[]> backlog = new ArrayDeque<>(); // {due nanos, index}
        long backlogMax = 0;
        long start = System.nanoTime();
        long next = 0; // index of the next request to fall due
        long answered = 0;
        long firstMeasured = -1;
        long lastMeasured = -1;
        long hardStop = start + (warmup + seconds + 30) * 1_000_000_000L;

        while (answered < total && System.nanoTime() < hardStop) {
            long now = System.nanoTime();
            while (next < total) {
                long due = start + (long) (next * 1e9 / rate);
                if (due > now) {
                    break;
                }
                backlog.add(new long[] {due, next});
                next++;
            }
            backlogMax = Math.max(backlogMax, backlog.size());
            while (!backlog.isEmpty() && !idle.isEmpty()) {
                long[] r = backlog.poll();
                Conn c = idle.poll();
                try {
                    c.send(nextRequest(), r[0], r[1]);
                } catch (IOException e) {
                    ko += r[1] >= measuredFrom ? 1 : 0;
                    answered++;
                    reopen(c, sel, idle);
                }
            }
            long wait = next < total ? Math.max(0, (start + (long) (next * 1e9 / rate) - System.nanoTime()) / 1_000_000) : 10;
            if (wait == 0) {
                sel.selectNow();
            } else {
                sel.select(Math.min(wait, 10));
            }
            for (var it = sel.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey sk = it.next();
                it.remove();
                Conn c = (Conn) sk.attachment();
                long i = c.index;
                try {
                    if (sk.isValid() && sk.isWritable()) {
                        c.ch.write(c.out);
                        if (!c.out.hasRemaining()) {
                            sk.interestOps(SelectionKey.OP_READ);
                        }
                    }
                    if (sk.isValid() && sk.isReadable()) {
                        if (!c.in.hasRemaining()) {
                            throw new IOException("answer larger than 64 KiB");
                        }
                        if (c.ch.read(c.in) < 0) {
                            throw new IOException("closed by the server");
                        }
                        int status = c.answer();
                        if (status < 0) {
                            continue;
                        }
                        long done = System.nanoTime();
                        answered++;
                        if (i >= measuredFrom) {
                            if (status >= 200 && status < 300) {
                                micros[measured++] = (int) Math.min(Integer.MAX_VALUE, (done - c.dueNanos) / 1000);
                            } else {
                                ko++;
                            }
                            firstMeasured = firstMeasured < 0 ? done : firstMeasured;
                            lastMeasured = done;
                        }
                        c.dueNanos = -1;
                        c.index = -1;
                        sk.interestOps(0);
                        idle.add(c);
                    }
                } catch (IOException e) {
                    if (i >= 0) {
                        answered++;
                        ko += i >= measuredFrom ? 1 : 0;
                    }
                    reopen(c, sel, idle);
                }
            }
        }
        long unanswered = total - answered;
        int[] t = Arrays.copyOf(micros, measured);
        Arrays.sort(t);
        double window = Math.max(1e-3, (lastMeasured - firstMeasured) / 1e9);
        String k = name;
        return k + "_ok=" + measured + "\n"
                + k + "_ko=" + (ko + unanswered) + "\n"
                + k + "_rps=" + String.format(Locale.ROOT, "%.1f", measured / window) + "\n"
                + k + "_p50=" + ms(t, 50) + "\n"
                + k + "_p95=" + ms(t, 95) + "\n"
                + k + "_p99=" + ms(t, 99) + "\n"
                + k + "_max=" + ms(t, 100) + "\n"
                + k + "_backlog_max=" + backlogMax + "\n";
    }

    void reopen(Conn c, Selector sel, ArrayDeque<Conn> idle) {
        try {
            c.sk.cancel();
            c.ch.close();
            sel.selectNow();
            c.open(sel);
            idle.add(c);
        } catch (IOException e) {
            System.err.println("connection could not be reopened: " + e.getMessage());
        }
    }

    static String ms(int[] sorted, double p) {
        if (sorted.length == 0) {
            return "n/a";
        }
        int k = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return String.format(Locale.ROOT, "%.1f", sorted[Math.max(0, Math.min(sorted.length - 1, k))] / 1000.0);
    }
}
