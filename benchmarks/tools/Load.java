import java.io.BufferedWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounded creation load (single-file program). Sends COUNT POSTs (at most MAX_SECONDS) with CONCURRENCY in flight,
 * each with a fresh Idempotency-Key, round-robin over the given API keys, and writes one line per request:
 *   epoch_ms TAB status(or ERR) TAB id-from-the-body(or -) TAB idempotency-key
 * Usage: java Load.java URL KEYS(comma) BODY_TEMPLATE({n} = sequence) COUNT CONCURRENCY MAX_SECONDS OUTFILE [RATE_PER_S] [RETRIES]
 * Without RETRIES a failed request (connection refused, 5xx) is recorded once and not retried: the caller counts
 * what was answered 2xx. With RETRIES > 0 it is retried (same Idempotency-Key, 250 ms apart, within MAX_SECONDS),
 * as a careful client does; only the final outcome is written.
 * BODY_TEMPLATE "GET:<ids file>" sends GET URL+id instead, cycling over the ids of the file (one per line).
 */
public class Load {
    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    public static void main(String[] a) throws Exception {
        String url = a[0];
        String[] keys = a[1].split(",");
        String template = a[2];
        int count = Integer.parseInt(a[3]);
        int conc = Integer.parseInt(a[4]);
        long maxMs = Long.parseLong(a[5]) * 1000;
        Path outFile = Path.of(a[6]);
        double rate = a.length > 7 ? Double.parseDouble(a[7]) : 0;
        int retries = a.length > 8 ? Integer.parseInt(a[8]) : 0;
        String run = Long.toString(System.currentTimeMillis(), 36);
        java.util.List<String> ids = template.startsWith("GET:")
                ? Files.readAllLines(Path.of(template.substring(4))).stream().filter(l -> !l.isBlank() && !l.equals("id")).toList()
                : null;

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(3)).executor(Executors.newFixedThreadPool(4)).build();
        Semaphore slots = new Semaphore(conc);
        Map<String, AtomicLong> byStatus = new ConcurrentHashMap<>();
        StringBuffer out = new StringBuffer();
        long start = System.currentTimeMillis();
        int sent = 0;
        for (int n = 1; n <= count; n++) {
            if (System.currentTimeMillis() - start > maxMs) {
                break;
            }
            if (rate > 0) {
                long due = start + (long) ((n - 1) * 1000.0 / rate);
                long wait = due - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
            }
            slots.acquire();
            String idem = "load-" + run + "-" + n;
            String body = template.replace("{n}", run + "-" + n);
            HttpRequest req = ids != null
                    ? HttpRequest.newBuilder(URI.create(url + ids.get(n % ids.size()))).timeout(Duration.ofSeconds(15))
                        .header("Authorization", "Bearer " + keys[n % keys.length]).GET().build()
                    : HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15))
                        .header("Authorization", "Bearer " + keys[n % keys.length])
                        .header("Content-Type", "application/json").header("Idempotency-Key", idem)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            sent++;
            send(client, req, idem, retries, start + maxMs, byStatus, out, slots);
        }
        if (!slots.tryAcquire(conc, 30, java.util.concurrent.TimeUnit.SECONDS)) {
            System.err.println("some requests did not finish within 30 s after the last send");
        }
        long ms = System.currentTimeMillis() - start;
        Files.writeString(outFile, out.toString(), StandardCharsets.UTF_8);
        Map<String, Long> summary = new TreeMap<>();
        byStatus.forEach((k, v) -> summary.put(k, v.get()));
        System.out.printf("sent=%d ms=%d rps=%.1f statuses=%s%n", sent, ms, sent * 1000.0 / Math.max(1, ms), summary);
        System.exit(0);
    }

    static void send(HttpClient client, HttpRequest req, String idem, int retriesLeft, long deadline,
                     Map<String, AtomicLong> byStatus, StringBuffer out, Semaphore slots) {
        client.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((resp, err) -> {
            boolean retryable = err != null || resp.statusCode() >= 500 || resp.statusCode() == 409 && resp.body().contains("IN_USE");
            if (retryable && retriesLeft > 0 && System.currentTimeMillis() + 250 < deadline) {
                RETRY.schedule(() -> send(client, req, idem, retriesLeft - 1, deadline, byStatus, out, slots),
                        250, java.util.concurrent.TimeUnit.MILLISECONDS);
                return;
            }
            String status;
            String id = "-";
            if (err != null) {
                status = "ERR";
            } else {
                status = Integer.toString(resp.statusCode());
                Matcher m = ID.matcher(resp.body());
                if (resp.statusCode() / 100 == 2 && m.find()) {
                    id = m.group(1);
                }
            }
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
            out.append(System.currentTimeMillis() + "\t" + status + "\t" + id + "\t" + idem + "\n"); // one append: lines never interleave
            slots.release();
        });
    }

    static final java.util.concurrent.ScheduledExecutorService RETRY = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "retry");
        t.setDaemon(true);
        return t;
    });
}
