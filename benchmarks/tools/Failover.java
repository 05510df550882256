import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Steady load on the three services through a database fault (single-file program): per service, creations at a fixed
 * rate (each sent once, never retried: what was answered 2xx is what must be in the database), money movements at a
 * fixed rate (a refund of its own intent, a withdrawal with its own reference; retried with the same Idempotency-Key on
 * 503, a lost connection or 409 IN_USE, as a careful client does, until a definitive answer), and one feed follower
 * reading the owner's event feed with held reads. One line per outcome:
 *   sent_ms TAB answered_ms TAB service TAB kind TAB status(or ERR) TAB retry_after(1/0/-) TAB id TAB key TAB attempts TAB error code
 * kind: create | money | feed (one line per event read; status 200) | feed_error (one line per failed read).
 * Usage: java Failover.java CONFIG.properties   (see benchmarks/lib/failover.sh for the keys)
 */
public class Failover {
    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern CURSOR = Pattern.compile("\"next_cursor\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern EVENT_ID = Pattern.compile("\"object\"\\s*:\\s*\"event\"\\s*,\\s*\"id\"\\s*:\\s*\"([^\"]+)\"");
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).executor(Executors.newFixedThreadPool(8)).build();
    static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(2);
    static final StringBuffer OUT = new StringBuffer();
    static final Semaphore IN_FLIGHT = new Semaphore(4000);

    public static void main(String[] a) throws Exception {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(Path.of(a[0]))) {
            p.load(in);
        }
        long seconds = Long.parseLong(p.getProperty("seconds"));
        long drain = Long.parseLong(p.getProperty("drain", "20"));
        long start = System.currentTimeMillis();
        long stop = start + seconds * 1000;
        String run = Long.toString(start, 36);
        List<Thread> threads = new ArrayList<>();
        for (int i = 1; p.getProperty("svc." + i + ".name") != null; i++) {
            String k = "svc." + i + ".";
            String name = p.getProperty(k + "name");
            String base = p.getProperty(k + "base");
            String[] keys = p.getProperty(k + "keys").split(",");
            threads.add(started(() -> creations(name, base, p.getProperty(k + "createPath"),
                    p.getProperty(k + "createBody"), keys, Double.parseDouble(p.getProperty(k + "rate")), stop, run)));
            if (p.getProperty(k + "moneyPath") != null) {
                Iterator<String> targets = p.getProperty(k + "moneyTargets") == null ? null
                        : Files.readAllLines(Path.of(p.getProperty(k + "moneyTargets"))).stream().filter(s -> !s.isBlank()).iterator();
                threads.add(started(() -> money(name, base, p.getProperty(k + "moneyPath"),
                        p.getProperty(k + "moneyBody"), p.getProperty(k + "moneyKey"),
                        Double.parseDouble(p.getProperty(k + "moneyRate")), targets, stop, run)));
            }
            if (p.getProperty(k + "feedKey") != null) {
                threads.add(started(() -> feed(name, base, p.getProperty(k + "feedKey"), stop + drain * 1000)));
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!IN_FLIGHT.tryAcquire(4000, 60, TimeUnit.SECONDS)) {
            System.err.println("some requests did not finish within 60 s after the load");
        }
        Files.writeString(Path.of(p.getProperty("out")), OUT.toString(), StandardCharsets.UTF_8);
        System.exit(0);
    }

    static Thread started(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    static void line(long sent, String svc, String kind, String status, String retryAfter, String id, String key, int attempts, String code) {
        OUT.append(sent + "\t" + System.currentTimeMillis() + "\t" + svc + "\t" + kind + "\t" + status + "\t" + retryAfter
                + "\t" + id + "\t" + key + "\t" + attempts + "\t" + code + "\n");
    }

    static void paced(double rate, long stop, java.util.function.IntConsumer send) {
        long begin = System.currentTimeMillis();
        for (int n = 1; System.currentTimeMillis() < stop; n++) {
            long wait = begin + (long) ((n - 1) * 1000.0 / rate) - System.currentTimeMillis();
            if (wait > 0) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            IN_FLIGHT.acquireUninterruptibly();
            send.accept(n);
        }
    }

    static HttpRequest post(String url, String key, String idem, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("Idempotency-Key", idem).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    static void creations(String svc, String base, String path, String body, String[] keys, double rate, long stop, String run) {
        paced(rate, stop, n -> {
            String idem = "fo-" + run + "-" + svc + "-" + n;
            long sent = System.currentTimeMillis();
            HTTP.sendAsync(post(base + path, keys[n % keys.length], idem, body.replace("{n}", run + "-" + n)),
                    HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                        record(sent, svc, "create", r, e, idem, 1);
                        IN_FLIGHT.release();
                    });
        });
    }

    static void money(String svc, String base, String path, String body, String key, double rate, Iterator<String> targets,
                      long stop, String run) {
        paced(rate, stop, n -> {
            String target;
            synchronized (Failover.class) {
                target = targets == null ? "" : targets.hasNext() ? targets.next() : null;
            }
            if (target == null) {
                IN_FLIGHT.release();
                return;
            }
            String idem = "fo-" + run + "-" + svc + "-m" + n;
            HttpRequest req = post(base + path, key, idem, body.replace("{key}", idem).replace("{target}", target));
            attempt(req, svc, idem, System.currentTimeMillis(), 1, System.currentTimeMillis() + 120_000);
        });
    }

    /** Retried with the same Idempotency-Key while the answer says nothing was decided; only the final outcome is written. */
    static void attempt(HttpRequest req, String svc, String idem, long sent, int attempts, long deadline) {
        HTTP.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            boolean again = e != null || r.statusCode() == 503 || r.statusCode() == 409 && r.body().contains("IN_USE");
            if (again && System.currentTimeMillis() + 250 < deadline) {
                TIMER.schedule(() -> attempt(req, svc, idem, sent, attempts + 1, deadline), 250, TimeUnit.MILLISECONDS);
                return;
            }
            record(sent, svc, "money", r, e, idem, attempts);
            IN_FLIGHT.release();
        });
    }

    static void record(long sent, String svc, String kind, HttpResponse<String> r, Throwable e, String idem, int attempts) {
        if (e != null) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            line(sent, svc, kind, "ERR", "-", "-", idem, attempts, cause.getClass().getSimpleName());
            return;
        }
        String id = "-";
        Matcher m = ID.matcher(r.body());
        if (r.statusCode() / 100 == 2 && m.find()) {
            id = m.group(1);
        }
        Matcher c = CODE.matcher(r.body());
        line(sent, svc, kind, Integer.toString(r.statusCode()), r.headers().firstValue("Retry-After").isPresent() ? "1" : "0",
                id, idem, attempts, r.statusCode() >= 400 && c.find() ? c.group(1) : "-");
    }

    /** Follows the owner's feed from its start with held reads; a failed read is tried again with the same cursor. */
    static void feed(String svc, String base, String key, long until) {
        String cursor = "start";
        while (System.currentTimeMillis() < until) {
            long sent = System.currentTimeMillis();
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events?after=" + cursor
                        + "&limit=100&wait=5")).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + key)
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    Matcher c = CODE.matcher(r.body());
                    line(sent, svc, "feed_error", Integer.toString(r.statusCode()),
                            r.headers().firstValue("Retry-After").isPresent() ? "1" : "0", "-", "-", 1, c.find() ? c.group(1) : "-");
                    Thread.sleep(250);
                    continue;
                }
                Matcher ev = EVENT_ID.matcher(r.body());
                while (ev.find()) {
                    line(sent, svc, "feed", "200", "-", ev.group(1), "-", 1, "-");
                }
                Matcher c = CURSOR.matcher(r.body());
                if (c.find()) {
                    cursor = c.group(1);
                }
            } catch (IOException e) {
                line(sent, svc, "feed_error", "ERR", "-", "-", "-", 1, e.getClass().getSimpleName());
                sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
