package ht.platform.webhooks.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookSigner;
import ht.platform.webhooks.signing.WebhookVerifier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code listen} against a strict stand-in of the event feed (GET only, the one path, the bearer key, cursors, held
 * reads) and a real local receiver: every event forwarded once, in order, verifiable; a restart resumes after the
 * last forwarded event; a local server that is down gets the event later; a refused listener exits 1.
 */
class FeedListenerTest {

    static final String KEY = "gw_test_listen_key_0123456789";
    static final String SECRET = "whsec_listen";

    @TempDir
    Path dir;

    Feed feed;
    LocalReceiver receiver;
    final List<Run> runs = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        feed = new Feed();
        receiver = new LocalReceiver(0);
    }

    @AfterEach
    void stop() throws Exception {
        for (Run r : runs) {
            r.stop();
        }
        feed.server.stop(0);
        receiver.server.stop(0);
    }

    @Test
    void forwardsEveryEventWithItsOriginalHeadersAndBodySoTheLibraryVerifiesIt() throws Exception {
        for (int i = 0; i < 5; i++) {
            feed.add("payment.succeeded");
        }
        Run run = listen("--from", "start");
        await(() -> receiver.received.size() == 5, "five events forwarded");
        WebhookVerifier verifier = new WebhookVerifier(SignatureScheme.GATEWAY, List.of(SECRET));
        for (int i = 0; i < 5; i++) {
            LocalReceiver.Received r = receiver.received.get(i);
            assertEquals(feed.bodies.get(i), new String(r.body(), StandardCharsets.UTF_8));
            assertTrue(verifier.verify(name -> r.headers().get(name.toLowerCase()), r.body()).valid(), "the forwarded signature verifies");
            assertEquals("payment.succeeded", r.headers().get("x-gateway-event"));
        }
        await(() -> run.output().lines().filter(l -> l.contains("-> 200")).count() == 5, "one line per event");
        assertTrue(run.output().contains("payment.succeeded  evt_0  -> 200"), run.output());
        assertFalse(run.output().contains(KEY), "the key is never printed");
        assertEquals(0, run.stop());
    }

    @Test
    void aRestartResumesAfterTheLastForwardedEventNothingLostNothingTwice() throws Exception {
        Run first = listen("--from", "latest");
        await(() -> feed.held > 0, "a read held at the end of the feed");
        for (int i = 0; i < 3; i++) {
            feed.add("payment.created");
        }
        await(() -> receiver.received.size() == 3, "three events forwarded");
        assertEquals(0, first.stop());
        for (int i = 0; i < 4; i++) {
            feed.add("payment.created");
        }
        Run second = listen("--from", "latest"); // the saved cursor wins over --from
        await(() -> receiver.received.size() == 7, () -> "seven events in all: " + first.output() + " / " + second.output());
        holds(() -> receiver.received.size() == 7, Duration.ofMillis(300), "no event forwarded twice");
        assertEquals(List.of("evt_0", "evt_1", "evt_2", "evt_3", "evt_4", "evt_5", "evt_6"),
                receiver.received.stream().map(r -> r.headers().get("x-gateway-event-id")).toList());
    }

    @Test
    void anEventWaitsWhileTheLocalServerIsDownAndIsForwardedWhenItIsBack() throws Exception {
        int port = receiver.server.getAddress().getPort();
        receiver.server.stop(0);
        feed.add("payment.failed");
        Run run = listen("--from", "start");
        await(() -> run.output().contains("again in"), "the refused connection reported");
        receiver = new LocalReceiver(port);
        await(() -> receiver.received.size() == 1, "the event forwarded once the server is back");
        holds(() -> receiver.received.size() == 1, Duration.ofMillis(300), "the event forwarded once only");
        assertEquals(1, receiver.received.size());
    }

    @Test
    void anExpiredCursorOrARefusedKeyEndsWithStatus1AndSaysWhy() throws Exception {
        Files.writeString(dir.resolve("cursor"), "cur_expired\n");
        Run expired = listen();
        assertEquals(1, expired.join());
        assertTrue(expired.output().contains("410 CURSOR_EXPIRED"), expired.output());
        assertTrue(expired.output().contains("oldest cursor still valid is c3"), expired.output());

        Files.delete(dir.resolve("cursor"));
        Run refused = listen("--key", "wrong");
        assertEquals(1, refused.join());
        assertTrue(refused.output().contains("401 UNAUTHENTICATED"), refused.output());
    }

    @Test
    void anEventThatDoesNotVerifyWithTheSecretIsNotForwardedAndListenStopsBeforeIt() throws Exception {
        feed.add("payment.succeeded");
        feed.signingSecret = "whsec_someone_elses";
        feed.add("payment.succeeded");
        Run run = listen("--from", "start");
        assertEquals(1, run.join());
        assertEquals(1, receiver.received.size(), "only the event that verifies: " + run.output());
        assertTrue(run.output().contains("evt_1  NOT forwarded"), run.output());
        assertEquals("c1", Files.readString(dir.resolve("cursor")).strip(), "resumes at the refused event");
    }

    @Test
    void onlyTheDeliveryHeadersAreForwardedNeverAnAuthorizationTheFeedCarries() throws Exception {
        feed.extraHeaders.putAll(Map.of("Authorization", "Bearer injected", "Cookie", "session=x", "User-Agent", "Platform-Webhooks/1",
                "X-Forwarded-For", "10.0.0.1", "X-Gateway-Debug", "on", "X-Gateway-Forwarded-Host", "evil.example"));
        feed.add("payment.succeeded");
        listen("--from", "start");
        await(() -> receiver.received.size() == 1, "the event forwarded");
        Map<String, String> got = receiver.received.get(0).headers();
        assertFalse(got.containsKey("authorization"), got.toString());
        assertFalse(got.containsKey("cookie"), got.toString());
        assertFalse(got.containsKey("x-forwarded-for"), got.toString());
        assertFalse(got.containsKey("x-gateway-debug"), got.toString());
        assertFalse(got.containsKey("x-gateway-forwarded-host"), got.toString());
        assertNotEquals("Platform-Webhooks/1", got.get("user-agent"), "only the signature headers and Content-Type");
        assertEquals("application/json", got.get("content-type"));
        assertEquals("payment.succeeded", got.get("x-gateway-event"));
        assertTrue(got.containsKey("x-gateway-signature"));
    }

    @Test
    void forwardsOnlyToThisMachineOverHttpAndReadsARemoteServiceOnlyOverHttps() {
        String[] base = {"listen", "--key", KEY, "--secret", SECRET};
        assertRefused("--forward-to must be on this machine", base, "--service", "https://api.example.com",
                "--forward-to", "http://192.0.2.7/hooks");
        assertRefused("--forward-to must be on this machine", base, "--service", "https://api.example.com",
                "--forward-to", "http://hooks.example.com/hooks");
        assertRefused("--forward-to must be an http or https URL", base, "--service", "https://api.example.com",
                "--forward-to", "file:///etc/passwd");
        assertRefused("--forward-to must be an http or https URL", base, "--service", "https://api.example.com",
                "--forward-to", "ftp://127.0.0.1/x", "--allow-remote-forward");
        assertRefused("--service must be https", base, "--service", "http://api.example.com",
                "--forward-to", "http://localhost:3000/hooks");
        assertRefused("--service must be an http or https URL", base, "--service", "gopher://127.0.0.1",
                "--forward-to", "http://localhost:3000/hooks");
        assertRefused("--secret", new String[] {"listen", "--key", KEY}, "--service", "https://api.example.com",
                "--forward-to", "http://localhost:3000/hooks");
        for (String local : List.of("http://localhost:3000/hooks", "http://127.0.0.1:3000/hooks", "http://[::1]:3000/hooks",
                "https://127.0.0.2/hooks")) {
            FeedListener.of(concat(base, "--service", "https://api.example.com", "--forward-to", local), System.out);
        }
        FeedListener.of(concat(base, "--service", "http://127.0.0.1:8083", "--forward-to", "https://hooks.example.com/in",
                "--allow-remote-forward"), System.out);
    }

    @Test
    void anIpv4AddressInAShortOctalOrHexFormIsRefusedAsTheConnectionWouldReadItElsewhere() {
        String[] base = {"listen", "--key", KEY, "--secret", SECRET};
        // the address policy reads each as 127.0.0.1; the JDK connects to 0177.0.0.1 as 177.0.0.1, a public address
        for (String host : List.of("0177.0.0.1", "0x7f.1", "127.1", "2130706433", "0x7f000001", "127.0.0.01")) {
            assertRefused("--forward-to", base, "--service", "https://api.example.com", "--forward-to", "http://" + host + ":3000/hooks");
            assertRefused("--forward-to", base, "--service", "https://api.example.com", "--forward-to", "http://" + host + ":3000/hooks",
                    "--allow-remote-forward");
            assertRefused("--service", base, "--service", "http://" + host + ":8083", "--forward-to", "http://127.0.0.1:3000/hooks");
        }
        assertRefused("four decimal numbers", base, "--service", "https://api.example.com", "--forward-to", "http://0177.0.0.1:3000/hooks");
    }

    @Test
    void controlCharactersTheFeedSendsArePrintedEscaped() throws Exception {
        feed.add("payment.succeeded\u001b]0;owned\u0007\u001b[2J\r\n2026-01-01T00:00:00Z  payment.refunded  evt_9  -> 200\u202e");
        Run run = listen("--from", "start");
        await(() -> run.output().contains("-> 200"), "the event forwarded");
        String out = run.output();
        assertFalse(out.chars().anyMatch(c -> c == 0x1b || c == 0x07 || c == '\r' || c == 0x202e), out);
        assertEquals(2, out.lines().count(), "one line for the start, one for the event: " + out);
        assertTrue(out.contains("payment.succeeded\\u001b]0;owned\\u0007\\u001b[2J\\u000d\\u000a2026"), out);
    }

    @Test
    void anEventTheFeedHandsOverAgainIsNotForwardedAgain() throws Exception {
        feed.add("payment.succeeded");
        feed.add("payment.refunded");
        feed.ignoresCursor = true; // every read answers the whole feed again
        Run run = listen("--from", "start");
        await(() -> run.output().lines().filter(l -> l.contains("already forwarded")).count() >= 20, "repeated reads");
        assertEquals(List.of("evt_0", "evt_1"), receiver.received.stream().map(r -> r.headers().get("x-gateway-event-id")).toList());
    }

    @Test
    void urlsArePrintedWithoutTheirCredentials() throws Exception {
        Run run = listen("--service", "http://admin:s3cret-pass@127.0.0.1:" + feed.port(),
                "--forward-to", "http://hook:hunter2@127.0.0.1:" + receiver.server.getAddress().getPort() + "/hooks");
        await(() -> run.output().contains("listening to"), "the first line");
        assertEquals(0, run.stop());
        assertFalse(run.output().contains("s3cret-pass"), run.output());
        assertFalse(run.output().contains("hunter2"), run.output());
        assertTrue(run.output().contains("listening to http://127.0.0.1:" + feed.port()), run.output());
    }

    static void assertRefused(String why, String[] base, String... more) {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> FeedListener.of(concat(base, more), System.out));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    }

    static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    // ---------------------------------------------------------------- the listener on a thread

    final class Run {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final BackgroundListener listener;

        Run(String... extra) {
            List<String> args = new ArrayList<>(List.of("listen", "--service", "http://127.0.0.1:" + feed.port(),
                    "--key", KEY, "--secret", SECRET, "--forward-to", "http://127.0.0.1:" + receiver.server.getAddress().getPort() + "/hooks",
                    "--cursor-file", dir.resolve("cursor").toString(), "--wait", "2"));
            args.addAll(List.of(extra));
            listener = BackgroundListener.start(FeedListener.of(args.toArray(String[]::new),
                    new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        }

        String output() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        int stop() throws InterruptedException {
            return ended(listener.stop(Duration.ofSeconds(10)));
        }

        int join() throws InterruptedException {
            return ended(listener.join(Duration.ofSeconds(10)));
        }

        private int ended(int status) {
            assertNotEquals(BackgroundListener.RUNNING, status, "the listener ended");
            return status;
        }
    }

    Run listen(String... extra) {
        // a later --key replaces the first
        Run run = new Run(extra);
        runs.add(run);
        return run;
    }

    static void await(BooleanSupplier condition, String what) {
        await(condition, () -> what);
    }

    /** Until {@code condition} holds, within 10 s; a failure says {@code what} as it stood last. */
    static void await(BooleanSupplier condition, java.util.function.Supplier<String> what) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .pollInSameThread().untilAsserted(() -> assertTrue(condition.getAsBoolean(), what));
    }

    /** "Nothing more happens": {@code condition} holds for the whole of {@code during}; the first miss fails at once. */
    static void holds(BooleanSupplier condition, Duration during, String what) {
        Awaitility.await(what).during(during).atMost(during.plusSeconds(1)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).pollInSameThread().failFast(what, () -> !condition.getAsBoolean())
                .until(condition::getAsBoolean);
    }

    // ---------------------------------------------------------------- a strict stand-in of the feed

    /** GET /api/v1/events only; cursors are "c" + how many events precede; held reads wait for the next event. */
    static final class Feed {
        final HttpServer server;
        final List<String> ids = new ArrayList<>();
        final List<String> types = new ArrayList<>();
        final List<String> bodies = new ArrayList<>();
        final List<String> signedWith = new ArrayList<>();
        /** What the next event added is signed with, and headers the feed adds beside the delivery's own. */
        volatile String signingSecret = SECRET;
        final Map<String, String> extraHeaders = new java.util.concurrent.ConcurrentHashMap<>();
        volatile int held;
        /** A faulty feed: every read answers from the first event, whatever its cursor. */
        volatile boolean ignoresCursor;

        Feed() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/", this::handle);
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        synchronized void add(String type) {
            String id = "evt_" + ids.size();
            ids.add(id);
            types.add(type);
            signedWith.add(signingSecret);
            bodies.add("{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"data\":{\"note\":\"caf\u00e9 \\\"quoted\\\"\"}}");
            notifyAll();
        }

        void handle(HttpExchange ex) throws IOException {
            try {
                if (!ex.getRequestURI().getPath().equals("/api/v1/events")) {
                    answer(ex, 404, "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"no such path\"}}");
                } else if (!ex.getRequestMethod().equals("GET")) {
                    answer(ex, 405, "{\"error\":{\"code\":\"METHOD_NOT_ALLOWED\",\"message\":\"GET only\"}}");
                } else if (!("Bearer " + KEY).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
                    answer(ex, 401, "{\"error\":{\"code\":\"UNAUTHENTICATED\",\"message\":\"Missing or invalid API key\"}}");
                } else {
                    read(ex, query(ex.getRequestURI().getRawQuery()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ex.close();
            }
        }

        void read(HttpExchange ex, Map<String, String> q) throws IOException, InterruptedException {
            String after = q.get("after");
            int from;
            synchronized (this) {
                if (after.equals("cur_expired")) {
                    answer(ex, 410, "{\"error\":{\"code\":\"CURSOR_EXPIRED\",\"message\":\"older than the retention\","
                            + "\"param\":\"after\",\"oldest_cursor\":\"c3\"}}");
                    return;
                }
                from = after.equals("start") || ignoresCursor ? 0 : after.equals("latest") ? ids.size() : Integer.parseInt(after.substring(1));
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.parseInt(q.getOrDefault("wait", "0")));
                held++;
                while (ids.size() <= from && System.nanoTime() < until) {
                    wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
                }
                held--;
            }
            int limit = Integer.parseInt(q.getOrDefault("limit", "50"));
            StringBuilder data = new StringBuilder();
            int n;
            synchronized (this) {
                n = Math.min(ids.size(), from + limit);
                long now = Instant.now().getEpochSecond();
                for (int i = from; i < n; i++) {
                    Map<String, String> headers = new TreeMap<>(WebhookSigner.sign(SignatureScheme.GATEWAY,
                            List.of(signedWith.get(i)), now, ids.get(i), bodies.get(i).getBytes(StandardCharsets.UTF_8)));
                    headers.putAll(extraHeaders);
                    headers.put("Content-Type", "application/json");
                    headers.put("X-Gateway-Event", types.get(i));
                    StringBuilder h = new StringBuilder();
                    headers.forEach((k, v) -> h.append(h.length() == 0 ? "" : ",").append(json(k)).append(':').append(json(v)));
                    data.append(data.length() == 0 ? "" : ",").append("{\"object\":\"event\",\"id\":").append(json(ids.get(i)))
                            .append(",\"type\":").append(json(types.get(i))).append(",\"cursor\":\"c").append(i + 1)
                            .append("\",\"headers\":{").append(h).append("},\"body\":").append(json(bodies.get(i))).append('}');
                }
            }
            answer(ex, 200, "{\"object\":\"list\",\"data\":[" + data + "],\"next_cursor\":\"c" + n + "\",\"has_more\":false}");
        }

        static Map<String, String> query(String raw) {
            Map<String, String> q = new HashMap<>();
            for (String pair : raw == null ? new String[0] : raw.split("&")) {
                int eq = pair.indexOf('=');
                q.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            return q;
        }

        static String json(String s) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> {
                        if (c < 0x20 || c > 0x7e) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            return out.append('"').toString();
        }

        static void answer(HttpExchange ex, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
        }
    }

    /** The merchant's local handler: records every request's headers (lower-case names) and body, answers 200. */
    static final class LocalReceiver {
        record Received(Map<String, String> headers, byte[] body) { }

        final HttpServer server;
        final List<Received> received = new CopyOnWriteArrayList<>();

        LocalReceiver(int port) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            server.createContext("/hooks", ex -> {
                Map<String, String> headers = new HashMap<>();
                ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
                received.add(new Received(headers, ex.getRequestBody().readAllBytes()));
                ex.sendResponseHeaders(200, -1);
                ex.close();
            });
            server.start();
        }
    }
}
