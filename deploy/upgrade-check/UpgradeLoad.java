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
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steady load of deploy/upgrade-check.sh on one service (single-file program, JDK 17: java UpgradeLoad.java CONFIG).
 * Sends, each at its own fixed rate, to the base URL written in the file {@code baseFile} (read again every 100 ms, so
 * the check moves the load from one release to the other by rewriting it):
 *   create   a creation with a fresh Idempotency-Key, alternately for the owner with webhook addresses and the owner
 *            whose feed is read;
 *   advance  a test helper moving an acknowledged creation of the first owner on (a payment succeeds, an intent
 *            succeeds, a verification is verified);
 *   money    a withdrawal (wallet) or a refund of an advanced intent (checkout);
 *   read     a GET of an acknowledged object;
 *   feed     one follower of the second owner's event feed (held reads, GET /api/v1/events?after=...).
 * Nothing is retried: every answer is written as it came. While {@code pauseFile} exists (optional) nothing is sent
 * but the feed is read on (deploy/ha/drill.sh pauses to note its last acknowledged write before its instant T).
 * It stops when {@code stopFile} exists (or after maxSeconds),
 * lets what is in flight finish, reads the feed on for feedDrainSeconds, then looks up every acknowledged write on the
 * release the base file names now. Lines (TSV) in {@code out}:
 *   sent_ms answered_ms base kind status(or ERR) id key_index idempotency_key error_code
 * kinds: create advance money read feed (one line per event read) feed_error verify (status OK | LOST: what was found).
 * The summary (key=value) goes to stdout.
 */
public class UpgradeLoad {
    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern CURSOR = Pattern.compile("\"next_cursor\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern EVENT_ID = Pattern.compile("\"object\"\\s*:\\s*\"event\"\\s*,\\s*\"id\"\\s*:\\s*\"([^\"]+)\"");
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).executor(Executors.newFixedThreadPool(4)).build();
    static final StringBuffer OUT = new StringBuffer();
    static final Semaphore IN_FLIGHT = new Semaphore(1000);

    /** An acknowledged write: where to read it, with which key, and the statuses it may show (a|b; null: any). */
    record Write(String kind, String id, String readPath, int key, String status) { }

    static final List<Write> ACKED = new CopyOnWriteArrayList<>();
    static final ConcurrentLinkedQueue<String> TO_ADVANCE = new ConcurrentLinkedQueue<>();
    static final ConcurrentLinkedQueue<String> ADVANCED = new ConcurrentLinkedQueue<>();
    static final List<String> READABLE = new CopyOnWriteArrayList<>();
    static final AtomicLong sent = new AtomicLong();

    static Properties p;
    static String[] keys;
    static volatile String base;

    public static void main(String[] a) throws Exception {
        p = new Properties();
        try (var in = Files.newBufferedReader(Path.of(a[0]))) {
            p.load(in);
        }
        keys = p.getProperty("keys").split(",");
        Path baseFile = Path.of(p.getProperty("baseFile"));
        Path stopFile = Path.of(p.getProperty("stopFile"));
        Path pauseFile = p.getProperty("pauseFile") == null ? null : Path.of(p.getProperty("pauseFile"));
        base = Files.readString(baseFile).trim();
        long deadline = System.currentTimeMillis() + Long.parseLong(p.getProperty("maxSeconds", "600")) * 1000;
        long maxRequests = Long.parseLong(p.getProperty("maxRequests", "20000"));
        String run = Long.toString(System.currentTimeMillis(), 36);

        List<Thread> threads = new ArrayList<>();
        threads.add(paced("rate", n -> create(n, run)));
        if (p.getProperty("advancePath") != null) {
            threads.add(paced("advanceRate", n -> advance(run, n)));
        }
        if (p.getProperty("moneyPath") != null) {
            threads.add(paced("moneyRate", n -> money(run, n)));
        }
        threads.add(paced("readRate", n -> read()));
        Thread feed = p.getProperty("feedKey") == null ? null : started(UpgradeLoad::feed);

        while (!Files.exists(stopFile) && System.currentTimeMillis() < deadline && sent.get() < maxRequests) {
            String now = Files.readString(baseFile).trim();
            if (!now.equals(base)) {
                base = now;
                System.err.println("load moved to " + base);
            }
            boolean pause = pauseFile != null && Files.exists(pauseFile);
            long at = System.currentTimeMillis();
            pausedSince = !pause ? 0 : pausedSince == 0 ? at : pausedSince;
            paused = pause;
            Path quiet = pauseFile == null ? null : Path.of(pauseFile + ".quiet");
            if (pause && at - pausedSince >= 300 && IN_FLIGHT.availablePermits() == 1000 && !Files.exists(quiet)) {
                // paused, every request answered: the last acknowledged write (epoch ms of its answer)
                Files.writeString(quiet, lastAck.get() + "\n");
            } else if (!pause && quiet != null) {
                Files.deleteIfExists(quiet);
            }
            Thread.sleep(100);
        }
        stopping = true;
        for (Thread t : threads) {
            t.join();
        }
        if (!IN_FLIGHT.tryAcquire(1000, 60, TimeUnit.SECONDS)) {
            System.err.println("some requests were still unanswered 60 s after the load");
        }
        feedUntil = System.currentTimeMillis() + Long.parseLong(p.getProperty("feedDrainSeconds", "10")) * 1000;
        if (feed != null) {
            feed.join();
        }
        base = Files.readString(baseFile).trim();
        verify();
        System.out.println("sent=" + sent.get());
        Files.writeString(Path.of(p.getProperty("out")), OUT.toString(), StandardCharsets.UTF_8);
        System.exit(0);
    }

    static volatile boolean stopping;
    static volatile boolean paused;
    static long pausedSince;
    static final AtomicLong lastAck = new AtomicLong();
    static volatile long feedUntil = Long.MAX_VALUE;

    interface Send {
        void send(int n);
    }

    /** Calls {@code send} at the rate the property names (per second) until the load stops. */
    static Thread paced(String rateProperty, Send send) {
        double rate = Double.parseDouble(p.getProperty(rateProperty, "0"));
        return started(() -> {
            if (rate <= 0) {
                return;
            }
            long begin = System.currentTimeMillis();
            long pausedFrom = 0;
            for (int n = 1; !stopping; n++) {
                while (paused && !stopping) {
                    pausedFrom = pausedFrom == 0 ? System.currentTimeMillis() : pausedFrom;
                    sleep(20);
                }
                if (pausedFrom != 0) {
                    // the pace goes on from the end of the pause, without a burst for the time paused
                    begin += System.currentTimeMillis() - pausedFrom;
                    pausedFrom = 0;
                }
                long wait = begin + (long) ((n - 1) * 1000.0 / rate) - System.currentTimeMillis();
                if (wait > 0) {
                    sleep(wait);
                    if (stopping) {
                        return;
                    }
                    if (paused) {
                        n--;
                        continue;
                    }
                }
                IN_FLIGHT.acquireUninterruptibly();
                send.send(n);
            }
        });
    }

    static void create(int n, String run) {
        int key = n % keys.length;
        String idem = "uc-" + run + "-c" + n;
        String body = p.getProperty("createBody").replace("{n}", run + "-" + n);
        send("create", post(p.getProperty("createPath"), key, idem, body), key, idem, (id, status) -> {
            ACKED.add(new Write("create", id, p.getProperty("readPrefix") + id, key, null));
            READABLE.add(key + " " + p.getProperty("readPrefix") + id);
            if (key == 0) {
                TO_ADVANCE.add(id);
            }
        });
    }

    static void advance(String run, int n) {
        String id = TO_ADVANCE.poll();
        if (id == null) {
            IN_FLIGHT.release();
            return;
        }
        String idem = "uc-" + run + "-a" + n;
        String want = p.getProperty("advanceStatus");
        send("advance", post(p.getProperty("advancePath").replace("{id}", id), 0, idem, p.getProperty("advanceBody", "{}")),
                0, idem, (ignored, status) -> {
                    ACKED.add(new Write("advance", id, p.getProperty("readPrefix") + id, 0, want));
                    ADVANCED.add(id);
                });
    }

    static void money(String run, int n) {
        String target = "";
        if (p.getProperty("moneyBody").contains("{target}")) {
            target = ADVANCED.poll();
            if (target == null) {
                IN_FLIGHT.release();
                return;
            }
        }
        String idem = "uc-" + run + "-m" + n;
        String body = p.getProperty("moneyBody").replace("{key}", idem).replace("{target}", target);
        send("money", post(p.getProperty("moneyPath"), 0, idem, body), 0, idem, (id, status) -> {
            ACKED.add(new Write("money", id, p.getProperty("moneyReadPrefix") + id, 0, null));
            READABLE.add("0 " + p.getProperty("moneyReadPrefix") + id);
        });
    }

    static void read() {
        if (READABLE.isEmpty()) {
            IN_FLIGHT.release();
            return;
        }
        String[] what = READABLE.get(ThreadLocalRandom.current().nextInt(READABLE.size())).split(" ", 2);
        int key = Integer.parseInt(what[0]);
        send("read", get(what[1], key), key, "-", null);
    }

    interface Acked {
        void acked(String id, String status);
    }

    /** Sends once; a 2xx answer with an id is an acknowledged write (handed to {@code acked}). */
    static void send(String kind, HttpRequest req, int key, String idem, Acked acked) {
        long at = System.currentTimeMillis();
        String to = req.uri().getScheme() + "://" + req.uri().getAuthority();
        sent.incrementAndGet();
        HTTP.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            try {
                if (e != null) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    line(at, to, kind, "ERR", "-", key, idem, cause.getClass().getSimpleName());
                    return;
                }
                String id = "-";
                Matcher m = ID.matcher(r.body());
                if (r.statusCode() / 100 == 2 && m.find()) {
                    id = m.group(1);
                    if (acked != null) {
                        lastAck.accumulateAndGet(System.currentTimeMillis(), Math::max);
                        Matcher s = STATUS.matcher(r.body());
                        acked.acked(id, s.find() ? s.group(1) : null);
                    }
                }
                Matcher c = CODE.matcher(r.body());
                line(at, to, kind, Integer.toString(r.statusCode()), id, key, idem, r.statusCode() >= 400 && c.find() ? c.group(1) : "-");
            } finally {
                IN_FLIGHT.release();
            }
        });
    }

    /** Every acknowledged write, looked up on the release that serves now (a 503 is asked again, 5 times at most). */
    static void verify() throws InterruptedException {
        for (Write w : ACKED) {
            String found = "ERR";
            for (int attempt = 0; attempt < 5; attempt++) {
                try {
                    HttpResponse<String> r = HTTP.send(get(w.readPath(), w.key()), HttpResponse.BodyHandlers.ofString());
                    Matcher s = STATUS.matcher(r.body());
                    String status = s.find() ? s.group(1) : "-";
                    found = r.statusCode() + "/" + status;
                    if (r.statusCode() == 503) {
                        Thread.sleep(500);
                        continue;
                    }
                    boolean ok = r.statusCode() == 200 && (w.status() == null || List.of(w.status().split("\\|")).contains(status));
                    line(System.currentTimeMillis(), base, "verify", ok ? "OK" : "LOST", w.id(), w.key(), w.kind(),
                            ok ? "-" : found + (w.status() == null ? "" : " (wanted " + w.status() + ")"));
                    found = null;
                    break;
                } catch (IOException e) {
                    found = "ERR " + e.getClass().getSimpleName();
                    Thread.sleep(500);
                }
            }
            if (found != null) {
                line(System.currentTimeMillis(), base, "verify", "LOST", w.id(), w.key(), w.kind(), found);
            }
        }
    }

    /** Follows the feed of the key {@code feedKey} from its start; a failed read is asked again with the same cursor. */
    static void feed() {
        String key = p.getProperty("feedKey");
        String cursor = "start";
        while (System.currentTimeMillis() < feedUntil) {
            long at = System.currentTimeMillis();
            String to = base;
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(to + "/api/v1/events?after=" + cursor
                        + "&limit=100&wait=2")).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + key)
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 400 && r.body().contains("\"param\":\"after\"") && !cursor.equals("start")) {
                    // a cursor the new release no longer takes (the previous one's readable form): as the feed's
                    // documentation says, read again from the start and drop the ids already seen
                    line(at, to, "feed_restart", "400", "-", 1, "-", "-");
                    cursor = "start";
                    continue;
                }
                if (r.statusCode() != 200) {
                    Matcher c = CODE.matcher(r.body());
                    line(at, to, "feed_error", Integer.toString(r.statusCode()), "-", 1, "-", c.find() ? c.group(1) : "-");
                    sleep(250);
                    continue;
                }
                Matcher ev = EVENT_ID.matcher(r.body());
                while (ev.find()) {
                    line(at, to, "feed", "200", ev.group(1), 1, "-", "-");
                }
                Matcher c = CURSOR.matcher(r.body());
                if (c.find()) {
                    cursor = c.group(1);
                }
            } catch (IOException e) {
                line(at, to, "feed_error", "ERR", "-", 1, "-", e.getClass().getSimpleName());
                sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static HttpRequest post(String path, int key, String idem, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + keys[key]).header("Content-Type", "application/json")
                .header("Idempotency-Key", idem).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    static HttpRequest get(String path, int key) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + keys[key]).GET().build();
    }

    static void line(long at, String to, String kind, String status, String id, int key, String idem, String code) {
        OUT.append(at + "\t" + System.currentTimeMillis() + "\t" + to + "\t" + kind + "\t" + status + "\t" + id + "\t" + key
                + "\t" + idem + "\t" + code + "\n");
    }

    static Thread started(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
