import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The event feed's latency (single-file program). One follower per key reads GET /api/v1/events?after=…&wait=25 in a
 * loop; meanwhile COUNT objects are created at RATE per second (open model, round-robin over the keys). For each
 * created object, the latency runs from the moment its creation answered 2xx (its transaction had committed: a lower
 * bound of commit -> feed) or was sent (an upper bound) to the moment a follower received its created event.
 *
 *   java FeedLatency.java latency BASE_URL KEYS(comma) CREATE_PATH BODY_TEMPLATE({n}) COUNT RATE EVENT_TYPE [WARM]
 *     (the first WARM objects, 5 s worth by default, warm the JIT and are left out of the figures)
 *     prints: events=… received=… lost=… dups=… p50_ms=… p99_ms=… max_ms=… p50_upper_ms=… p99_upper_ms=…
 *   java FeedLatency.java idle BASE_URL KEY COUNT SECONDS
 *     holds COUNT feed reads with wait=30 open for SECONDS (each re-asked when it ends), prints held=… answers=… errors=…
 */
public class FeedLatency {

    static final Pattern CURSOR = Pattern.compile("\"next_cursor\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    // HTTP/1.1 as the services' clients use it: one request per connection at a time, no h2c upgrade; the default
    // executor (a blocking send of a follower must never wait for a thread the producer's answers hold)
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    static final HttpClient PRODUCER = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        if (args[0].equals("idle")) {
            idle(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        } else {
            int rate = Integer.parseInt(args[6]);
            latency(args[1], List.of(args[2].split(",")), args[3], args[4], Integer.parseInt(args[5]), rate, args[7],
                    args.length > 8 ? Integer.parseInt(args[8]) : rate * 5);
        }
        System.exit(0);
    }

    static void latency(String base, List<String> keys, String path, String body, int measured, int rate, String type,
                        int warm) throws Exception {
        Map<String, Long> answered = new ConcurrentHashMap<>();
        Map<String, Long> sent = new ConcurrentHashMap<>();
        Map<String, Long> received = new ConcurrentHashMap<>();
        AtomicInteger dups = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> followers = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(keys.size());
        for (String key : keys) {
            Thread t = new Thread(() -> follow(base, key, type, received, dups, stop, started));
            t.setDaemon(true);
            t.start();
            followers.add(t);
        }
        started.await(30, TimeUnit.SECONDS);
        Thread.sleep(500); // every follower is now held in a wait
        // the warm-up first (the tool's own JIT too), drained, then the measured objects
        Map<String, Long> warmed = new ConcurrentHashMap<>();
        produce(base, keys, path, body, 0, warm, rate, new ConcurrentHashMap<>(), warmed);
        long drained = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!received.keySet().containsAll(warmed.keySet()) && System.nanoTime() < drained) {
            Thread.sleep(50);
        }
        Thread.sleep(1000);
        produce(base, keys, path, body, warm, measured, rate, sent, answered);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!received.keySet().containsAll(answered.keySet()) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        stop.set(true);
        List<Double> lower = new ArrayList<>();
        List<Double> upper = new ArrayList<>();
        int lost = 0;
        for (Map.Entry<String, Long> e : answered.entrySet()) {
            Long at = received.get(e.getKey());
            if (at == null) {
                lost++;
                continue;
            }
            lower.add(Math.max(0, at - e.getValue()) / 1e6);
            upper.add((at - sent.get(e.getKey())) / 1e6);
        }
        if (System.getenv("FEED_SERIES") != null) { // per event: when it was answered (ms into the run), latency
            long t0 = answered.values().stream().min(Long::compare).orElse(0L);
            StringBuilder series = new StringBuilder();
            answered.forEach((id, at) -> {
                Long got = received.get(id);
                if (got != null) {
                    series.append((at - t0) / 1_000_000).append('\t').append((got - at) / 1_000_000).append('\n');
                }
            });
            java.nio.file.Files.writeString(java.nio.file.Path.of(System.getenv("FEED_SERIES")), series);
        }
        Collections.sort(lower);
        Collections.sort(upper);
        System.out.printf("events=%d received=%d lost=%d dups=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f p50_upper_ms=%.1f"
                        + " p99_upper_ms=%.1f%n", answered.size(), lower.size(), lost, dups.get(), pct(lower, 50),
                pct(lower, 99), lower.isEmpty() ? 0 : lower.get(lower.size() - 1), pct(upper, 50), pct(upper, 99));
    }

    /** Creates {@code count} objects at {@code rate} per second; records when each was sent and answered 2xx. */
    static void produce(String base, List<String> keys, String path, String body, int first, int count, int rate,
                        Map<String, Long> sent, Map<String, Long> answered) throws InterruptedException {
        if (count == 0) {
            return;
        }
        ScheduledExecutorService producer = Executors.newScheduledThreadPool(4);
        AtomicInteger n = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(count);
        producer.scheduleAtFixedRate(() -> {
            int i = n.getAndIncrement();
            if (i >= count) {
                return;
            }
            String key = keys.get(i % keys.size());
            long t0 = System.nanoTime();
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .header("Idempotency-Key", UUID.randomUUID().toString())
                    .POST(HttpRequest.BodyPublishers.ofString(body.replace("{n}", Integer.toString(first + i)))).build();
            PRODUCER.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                long t1 = System.nanoTime();
                if (e == null && r.statusCode() / 100 == 2) {
                    Matcher m = ID.matcher(r.body());
                    if (m.find()) {
                        sent.put(m.group(1), t0);
                        answered.put(m.group(1), t1);
                    }
                }
                done.countDown();
            });
        }, 0, 1_000_000_000L / rate, TimeUnit.NANOSECONDS);
        done.await(count / Math.max(1, rate) + 60L, TimeUnit.SECONDS);
        producer.shutdownNow();
    }

    /** Follows one key's feed from its end: records when each created event's object arrived. */
    static void follow(String base, String key, String type, Map<String, Long> received, AtomicInteger dups,
                       AtomicBoolean stop, CountDownLatch started) {
        String cursor = "latest";
        boolean first = true;
        Pattern object = Pattern.compile("\\\\\"id\\\\\"\\s*:\\s*\\\\\"([^\\\\\"]+)\\\\\"");
        while (!stop.get()) {
            try {
                HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/api/v1/events?after=" + cursor
                                + "&wait=" + (first ? 0 : 25) + "&limit=100&types=" + type))
                        .timeout(Duration.ofSeconds(40)).header("Authorization", "Bearer " + key).GET().build();
                if (!first) {
                    started.countDown();
                }
                HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
                long at = System.nanoTime();
                if (r.statusCode() != 200) {
                    System.err.println("feed answered " + r.statusCode() + ": " + r.body());
                    Thread.sleep(200);
                    continue;
                }
                for (String item : r.body().split("\"object\":\"event\"")) {
                    // the body is a JSON string inside the item: its data object's id is the created object's
                    Matcher m = object.matcher(item);
                    String eventId = null;
                    String objectId = null;
                    while (m.find()) {
                        if (eventId == null) {
                            eventId = m.group(1);
                        } else if (objectId == null) {
                            objectId = m.group(1);
                        }
                    }
                    if (objectId != null && received.putIfAbsent(objectId, at) != null) {
                        dups.incrementAndGet();
                    }
                }
                Matcher c = CURSOR.matcher(r.body());
                if (c.find()) {
                    cursor = c.group(1);
                }
                first = false;
            } catch (Exception e) {
                if (!stop.get()) {
                    System.err.println("feed read failed: " + e);
                }
            }
        }
    }

    static void idle(String base, String key, int count, int seconds) throws Exception {
        String cursor;
        HttpResponse<String> head = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events?after=latest"))
                .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
        Matcher c = CURSOR.matcher(head.body());
        if (!c.find()) {
            throw new IllegalStateException("no cursor: " + head.statusCode() + " " + head.body());
        }
        cursor = c.group(1);
        HttpClient many = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        AtomicInteger held = new AtomicInteger();
        AtomicInteger answers = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        String url = base + "/api/v1/events?after=" + cursor + "&wait=30";
        for (int i = 0; i < count; i++) {
            ask(many, url, key, held, answers, errors, stop);
        }
        System.out.println("opened=" + count);
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        System.out.printf("held=%d answers=%d errors=%d%n", held.get(), answers.get(), errors.get());
    }

    static void ask(HttpClient client, String url, String key, AtomicInteger held, AtomicInteger answers,
                    AtomicInteger errors, AtomicBoolean stop) {
        held.incrementAndGet();
        client.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(45))
                        .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.discarding())
                .whenComplete((r, e) -> {
                    held.decrementAndGet();
                    if (e != null || r.statusCode() != 200) {
                        errors.incrementAndGet();
                    } else {
                        answers.incrementAndGet();
                    }
                    if (!stop.get()) {
                        ask(client, url, key, held, answers, errors, stop);
                    }
                });
    }

    static double pct(List<Double> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
