import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A flood of held feed reads from one key, and what everyone else meets meanwhile (single-file program), in two
 * processes so that the probes' timings do not carry the flooding client's own work:
 *
 *   java FeedFlood.java flood BASE_URL FLOOD_KEY COUNT WAIT
 *   java FeedFlood.java probe BASE_URL OTHER_KEY READ_PATH SECONDS
 *   java FeedFlood.java keys BASE_URL KEY_PREFIX PATH COUNT CLIENTS
 *
 * flood: opens COUNT reads GET /api/v1/events?after=<latest>&wait=WAIT with FLOOD_KEY at once and prints the answers by
 * status once all are in. probe: for SECONDS, every 250 ms, OTHER_KEY's feed read (another tenant, after=start),
 * OTHER_KEY's GET READ_PATH (an ordinary API call) and GET /q/health/ready, each timed; prints per probe n, p50/p95/max
 * ms, how many took over 1 s, were 5xx or got no answer within 5 s; with -Dwarmup=N it first makes the same requests for
 * N s uncounted, and with -Dready=FILE it creates FILE when it starts counting. keys: COUNT requests GET PATH at once, each on its
 * own connection with a random well-formed key (KEY_PREFIX + 43 url-safe base64 characters, like a real one), from
 * CLIENTS source addresses (127.0.0.2, 127.0.0.3, ...: as many clients as the edge can tell apart); prints the answers
 * by status.
 */
public class FeedFlood {

    static final Pattern CURSOR = Pattern.compile("\"next_cursor\"\\s*:\\s*\"([^\"]+)\"");
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    static final HttpClient PROBES = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    record Probe(String name, List<Long> millis, AtomicInteger errors, AtomicInteger unanswered) {
        Probe(String name) {
            this(name, Collections.synchronizedList(new ArrayList<>()), new AtomicInteger(), new AtomicInteger());
        }
    }

    /** With -Dseries=FILE, the probes also write each probe's send time (ms from the first) and latency, one a line. */
    static final List<String> SERIES = Collections.synchronizedList(new ArrayList<>());
    static volatile long seriesStart;

    public static void main(String[] args) throws Exception {
        String out = switch (args[0]) {
            case "flood" -> flood(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "probe" -> probes(args[1], args[2], args[3], Integer.parseInt(args[4]));
            case "keys" -> keys(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            default -> throw new IllegalArgumentException("flood or probe, not " + args[0]);
        };
        System.out.println(out);
        System.exit(0);
    }

    static String flood(String base, String floodKey, int count, int wait) throws Exception {
        HttpResponse<String> latest = HTTP.send(get(base + "/api/v1/events?after=latest", floodKey, 10),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = CURSOR.matcher(latest.body());
        if (latest.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("the flood key cannot read its feed: " + latest.statusCode() + " " + latest.body());
        }
        String held = base + "/api/v1/events?after=" + m.group(1) + "&wait=" + wait;

        Map<String, AtomicInteger> floodAnswers = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> flood = new ArrayList<>();
        long floodStart = System.nanoTime();
        for (int i = 0; i < count; i++) {
            flood.add(HTTP.sendAsync(get(held, floodKey, wait + 30), HttpResponse.BodyHandlers.discarding())
                    .handle((r, e) -> floodAnswers.computeIfAbsent(r != null ? Integer.toString(r.statusCode())
                            : e.getClass().getSimpleName(), k -> new AtomicInteger()).incrementAndGet()));
        }
        CompletableFuture.allOf(flood.toArray(CompletableFuture[]::new)).get(wait + 60L, TimeUnit.SECONDS);

        StringBuilder out = new StringBuilder();
        out.append("flood=").append(count).append(" wait=").append(wait);
        new TreeMap<>(floodAnswers).forEach((status, n) -> out.append(" flood_").append(status).append('=').append(n.get()));
        out.append(" flood_seconds=").append(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - floodStart));
        return out.toString();
    }

    static String keys(String base, String prefix, String path, int count, int clients) throws Exception {
        URI uri = URI.create(base);
        java.security.SecureRandom random = new java.security.SecureRandom();
        java.nio.channels.Selector selector = java.nio.channels.Selector.open();
        Map<String, AtomicInteger> answers = new TreeMap<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            byte[] secret = new byte[32];
            random.nextBytes(secret);
            String key = prefix + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + "\r\nAuthorization: Bearer " + key
                    + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open();
            channel.configureBlocking(false);
            channel.bind(new java.net.InetSocketAddress("127.0.0." + (2 + i % clients % 250), 0));
            boolean connected = channel.connect(new java.net.InetSocketAddress(uri.getHost(), uri.getPort()));
            channel.register(selector, connected ? java.nio.channels.SelectionKey.OP_WRITE : java.nio.channels.SelectionKey.OP_CONNECT,
                    new Object[] {java.nio.ByteBuffer.wrap(request), new StringBuilder()});
        }
        int open = count;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (open > 0 && System.nanoTime() < deadline) {
            selector.select(1000);
            for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                var k = it.next();
                it.remove();
                var channel = (java.nio.channels.SocketChannel) k.channel();
                Object[] state = (Object[]) k.attachment();
                String outcome = null;
                try {
                    if (k.isConnectable() && channel.finishConnect()) {
                        k.interestOps(java.nio.channels.SelectionKey.OP_WRITE);
                    } else if (k.isWritable()) {
                        channel.write((java.nio.ByteBuffer) state[0]);
                        if (!((java.nio.ByteBuffer) state[0]).hasRemaining()) {
                            k.interestOps(java.nio.channels.SelectionKey.OP_READ);
                        }
                    } else if (k.isReadable()) {
                        java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(4096);
                        int n = channel.read(in);
                        StringBuilder seen = (StringBuilder) state[1];
                        if (n > 0) {
                            seen.append(new String(in.array(), 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
                        }
                        if (seen.length() >= 12 && seen.indexOf("\r\n") > 0) {
                            outcome = seen.substring(9, 12);
                        } else if (n < 0) {
                            outcome = "closed";
                        }
                    }
                } catch (java.io.IOException e) {
                    outcome = e.getClass().getSimpleName();
                }
                if (outcome != null) {
                    answers.computeIfAbsent(outcome, s -> new AtomicInteger()).incrementAndGet();
                    k.cancel();
                    channel.close();
                    open--;
                }
            }
        }
        StringBuilder out = new StringBuilder().append("flood=").append(count).append(" clients=").append(clients);
        answers.forEach((status, n) -> out.append(" flood_").append(status).append('=').append(n.get()));
        if (open > 0) {
            out.append(" flood_unanswered=").append(open);
        }
        out.append(" flood_seconds=").append(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        return out.toString();
    }

    /**
     * The probes' own requests for SECONDS without counting them, so that what the probes then time is the service, not
     * this JVM's first seconds (its HTTP client's classes loaded and interpreted); then creates the file -Dready names.
     */
    static void warmUp(String base, String otherKey, String readPath, int seconds) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<CompletableFuture<?>> sent = new ArrayList<>();
        while (System.nanoTime() < until) {
            sent.add(PROBES.sendAsync(get(base + "/api/v1/events?after=start&limit=10", otherKey, 5), HttpResponse.BodyHandlers.discarding()));
            sent.add(PROBES.sendAsync(get(base + readPath, otherKey, 5), HttpResponse.BodyHandlers.discarding()));
            sent.add(PROBES.sendAsync(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()));
            Thread.sleep(250);
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).handle((v, e) -> null).get(30, TimeUnit.SECONDS);
    }

    static String probes(String base, String otherKey, String readPath, int seconds) throws Exception {
        int warmup = Integer.getInteger("warmup", 0);
        if (warmup > 0) {
            warmUp(base, otherKey, readPath, warmup);
        }
        if (System.getProperty("ready") != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(System.getProperty("ready")), "probing\n");
        }
        Probe feed = new Probe("other_feed");
        Probe api = new Probe("api_call");
        Probe ready = new Probe("ready");
        seriesStart = System.nanoTime();
        long until = seriesStart + TimeUnit.SECONDS.toNanos(seconds);
        List<CompletableFuture<?>> probes = new ArrayList<>();
        while (System.nanoTime() < until) {
            probes.add(probe(feed, get(base + "/api/v1/events?after=start&limit=10", otherKey, 5)));
            probes.add(probe(api, get(base + readPath, otherKey, 5)));
            probes.add(probe(ready, HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).timeout(Duration.ofSeconds(5)).GET().build()));
            Thread.sleep(250);
        }
        CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        if (System.getProperty("series") != null) {
            List<String> lines = new ArrayList<>(SERIES);
            Collections.sort(lines, java.util.Comparator.comparingLong(l -> Long.parseLong(l.split("\t")[1])));
            lines.add(0, "probe\tsent_ms\tlatency_ms");
            java.nio.file.Files.write(java.nio.file.Path.of(System.getProperty("series")), lines);
        }

        StringBuilder out = new StringBuilder();
        for (Probe p : List.of(feed, api, ready)) {
            List<Long> sorted = new ArrayList<>(p.millis());
            Collections.sort(sorted);
            out.append(p.name()).append("_n=").append(sorted.size() + p.unanswered().get())
                    .append(' ').append(p.name()).append("_p50_ms=").append(sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2))
                    .append(' ').append(p.name()).append("_p95_ms=").append(sorted.isEmpty() ? -1 : sorted.get((int) Math.ceil(sorted.size() * 0.95) - 1))
                    .append(' ').append(p.name()).append("_p99_ms=").append(sorted.isEmpty() ? -1 : sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1))
                    .append(' ').append(p.name()).append("_over_1s=").append(sorted.stream().filter(ms -> ms > 1000).count())
                    .append(' ').append(p.name()).append("_max_ms=").append(sorted.isEmpty() ? -1 : sorted.get(sorted.size() - 1))
                    .append(' ').append(p.name()).append("_5xx=").append(p.errors().get())
                    .append(' ').append(p.name()).append("_unanswered=").append(p.unanswered().get()).append(' ');
        }
        return out.toString().trim();
    }

    static HttpRequest get(String url, String key, int timeoutSeconds) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(timeoutSeconds))
                .header("Authorization", "Bearer " + key).GET().build();
    }

    static CompletableFuture<?> probe(Probe p, HttpRequest request) {
        long start = System.nanoTime();
        return PROBES.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            SERIES.add(p.name() + "\t" + TimeUnit.NANOSECONDS.toMillis(start - seriesStart) + "\t" + (r == null ? "none" : took));
            if (r == null) {
                p.unanswered().incrementAndGet();
            } else {
                p.millis().add(took);
                if (r.statusCode() >= 500) {
                    p.errors().incrementAndGet();
                }
            }
            return null;
        });
    }
}
