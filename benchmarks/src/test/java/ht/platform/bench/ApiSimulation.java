package ht.platform.bench;

import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The maximum throughput of one service, driven by system properties (set by run.sh): closed model,
 * {@code bench.users} concurrent users; a warm-up of creations and reads, then {@code bench.seconds} of creations,
 * then {@code bench.seconds} of reads by id. (Latency at a fixed open-model rate is measured by tools/OpenLoad.java,
 * which costs far less CPU per request than a Gatling virtual user on a machine the service shares.)
 * Creations carry a fresh {@code Idempotency-Key}; reads take ids from {@code bench.idsFile} (one id per line,
 * header {@code id}), objects the service created earlier. Request names: create, read (and warm-up-*).
 * <p>Gatling 3.14 keeps its statistics inside the HTML report, so the simulation also collects the response time of
 * every request itself and writes {@code bench.statsFile} (key=value: count, errors, throughput over the
 * phase's own first-to-last completion window, p50/p95/p99 in ms) when it ends.
 */
public class ApiSimulation extends Simulation {

    private static String prop(String name, String def) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? def : v;
    }

    private static final String BASE = prop("bench.baseUrl", "http://127.0.0.1:18083");
    private static final String KEY = prop("bench.key", "missing");
    private static final String CREATE_PATH = prop("bench.createPath", "/api/v1/payments");
    /** Base64 of the JSON body (quotes do not survive the trip through Maven into the forked JVM). */
    private static final String CREATE_BODY = new String(java.util.Base64.getDecoder().decode(prop("bench.createBodyB64",
            java.util.Base64.getEncoder().encodeToString("{\"amount\":1000,\"currency\":\"HTG\",\"reference\":\"#{ref}\"}".getBytes()))),
            java.nio.charset.StandardCharsets.UTF_8);
    private static final int CREATE_STATUS = Integer.parseInt(prop("bench.createStatus", "201"));
    private static final String READ_PATH = prop("bench.readPath", "/api/v1/payments/");
    private static final String IDS = prop("bench.idsFile", "");
    private static final int USERS = Integer.parseInt(prop("bench.users", "16"));
    private static final int SECONDS = Integer.parseInt(prop("bench.seconds", "20"));
    private static final int WARMUP = Integer.parseInt(prop("bench.warmupSeconds", "10"));
    private static final String RUN = prop("bench.runId", Long.toString(System.currentTimeMillis(), 36));

    private static final String STATS = prop("bench.statsFile", "target/bench-stats.properties");

    private static final AtomicLong SEQ = new AtomicLong();

    /** The service's pid (bench.pid): its CPU time (/proc/PID/stat) and the machine's (/proc/stat) are sampled every 100 ms. */
    private static final String PID = prop("bench.pid", "");
    private static final java.util.List<long[]> CPU = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    static long[] cpuSample() {
        long svc = -1;
        try {
            if (!PID.isEmpty()) {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + PID + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                svc = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime + stime, clock ticks
            }
            String[] m = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < m.length; i++) {
                total += Long.parseLong(m[i]);
            }
            long idle = Long.parseLong(m[4]) + Long.parseLong(m[5]);
            return new long[] {System.currentTimeMillis(), svc, total - idle, total};
        } catch (Exception e) {
            return new long[] {System.currentTimeMillis(), -1, 0, 0};
        }
    }

    static {
        Thread t = new Thread(() -> {
            while (true) {
                CPU.add(cpuSample());
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "cpu-sampler");
        t.setDaemon(true);
        t.start();
    }

    static long[] nearest(long at) {
        synchronized (CPU) {
            long[] best = null;
            for (long[] s : CPU) {
                if (s[1] < 0 || s[3] <= 0) {
                    continue; // a failed read of /proc (e.g. no file descriptor left)
                }
                if (best == null || Math.abs(s[0] - at) < Math.abs(best[0] - at)) {
                    best = s;
                }
            }
            return best;
        }
    }

    /** Response times (ms) and completion window of one request name. */
    static final class Stat {
        final java.util.concurrent.ConcurrentLinkedQueue<Integer> times = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final AtomicLong errors = new AtomicLong();
        final java.util.concurrent.atomic.AtomicLong first = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
        final java.util.concurrent.atomic.AtomicLong last = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);
    }

    private static final java.util.Map<String, Stat> STATS_BY_NAME = new java.util.concurrent.ConcurrentHashMap<>();

    private static Session measure(String name, Session session) {
        Stat st = STATS_BY_NAME.computeIfAbsent(name, n -> new Stat());
        long now = System.currentTimeMillis();
        st.first.accumulateAndGet(now, Math::min);
        st.last.accumulateAndGet(now, Math::max);
        if (session.isFailed() || !session.contains("rt")) {
            st.errors.incrementAndGet();
        } else {
            st.times.add(session.getInt("rt"));
        }
        return session.markAsSucceeded().remove("rt");
    }

    private static int pct(int[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int k = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, k))];
    }

    @Override
    public void after() {
        StringBuilder out = new StringBuilder();
        STATS_BY_NAME.forEach((name, st) -> {
            int[] t = st.times.stream().mapToInt(Integer::intValue).sorted().toArray();
            double seconds = Math.max(0.001, (st.last.get() - st.first.get()) / 1000.0);
            String k = name.replace("-", "_");
            out.append(k).append("_ok=").append(t.length).append('\n');
            out.append(k).append("_ko=").append(st.errors.get()).append('\n');
            out.append(k).append("_rps=").append(String.format(java.util.Locale.ROOT, "%.1f", t.length / seconds)).append('\n');
            out.append(k).append("_p50=").append(pct(t, 50)).append('\n');
            out.append(k).append("_p95=").append(pct(t, 95)).append('\n');
            out.append(k).append("_p99=").append(pct(t, 99)).append('\n');
            long[] a = nearest(st.first.get());
            long[] b = nearest(st.last.get());
            if (a != null && b != null && b[0] > a[0] && a[1] >= 0 && t.length > 0) {
                double svcMs = (b[1] - a[1]) * 10.0; // USER_HZ = 100
                double wallMs = b[0] - a[0];
                out.append(k).append("_cpu_ms_per_req=").append(String.format(java.util.Locale.ROOT, "%.2f", svcMs / t.length)).append('\n');
                out.append(k).append("_svc_cores=").append(String.format(java.util.Locale.ROOT, "%.2f", svcMs / wallMs)).append('\n');
                double busy = b[3] > a[3] ? 100.0 * (b[2] - a[2]) / (b[3] - a[3]) : -1;
                out.append(k).append("_machine_busy_pct=").append(String.format(java.util.Locale.ROOT, "%.0f", busy)).append('\n');
            }
        });
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(STATS), out.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private final HttpProtocolBuilder protocol = http.baseUrl(BASE)
            .header("Authorization", "Bearer " + KEY)
            .contentTypeHeader("application/json")
            .acceptHeader("application/json")
            .shareConnections()
            .maxConnectionsPerHost(Math.max(16, 4 * USERS))
            .disableCaching();

    private ChainBuilder create(String name) {
        return exec(session -> {
                    long n = SEQ.incrementAndGet();
                    return session.set("ref", "b-" + RUN + "-" + n).set("idem", RUN + "-" + n + "-" + UUID.randomUUID());
                })
                .exec(http(name).post(CREATE_PATH)
                        .header("Idempotency-Key", "#{idem}")
                        .body(StringBody(CREATE_BODY))
                        .check(status().is(CREATE_STATUS), responseTimeInMillis().saveAs("rt")))
                .exec(session -> measure(name, session));
    }

    private ChainBuilder read(String name) {
        return feed(csv(IDS).circular())
                .exec(http(name).get(READ_PATH + "#{id}").check(status().is(200), responseTimeInMillis().saveAs("rt")))
                .exec(session -> measure(name, session));
    }

    {
        ScenarioBuilder wc = scenario("warm-create").exec(create("warm-up-create"));
        ScenarioBuilder wr = scenario("warm-read").exec(read("warm-up-read"));
        ScenarioBuilder c = scenario("max-create").exec(create("create"));
        ScenarioBuilder r = scenario("max-read").exec(read("read"));
        setUp(wc.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofSeconds(WARMUP)))
                .andThen(wr.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofSeconds(Math.max(1, WARMUP / 2))))
                .andThen(c.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofSeconds(SECONDS)))
                .andThen(r.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofSeconds(SECONDS)))))))
                .protocols(protocol);
    }
}
