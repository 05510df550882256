package ht.platform.webhooks.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code listen}: follows a service's event feed ({@code GET /api/v1/events?after=…&wait=…}) and posts each event to a
 * local URL with its original body and delivery headers, once its signature verifies with {@code --secret}, so a
 * handler on a laptop receives exactly what a pushed webhook delivery would carry, with no public address. An event
 * whose signature does not verify is not forwarded: listen says why and ends with status 1, its cursor not saved. After each event is forwarded (any HTTP answer counts), its cursor
 * is written to the cursor file, so a restart resumes after it: nothing is lost, nothing forwarded twice. A local
 * server that refuses the connection gets the same event again, with backoff; so does a feed that fails for a while.
 */
public final class FeedListener {

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    private static final Duration LAST_BACKOFF = Duration.ofSeconds(10);
    private static final int REMEMBERED = 10_000;

    private final ListenOptions options;
    private final PrintStream out;
    private final Clock clock;
    /** The ids of the events forwarded lately: a feed that hands one over again does not get it forwarded twice. */
    private final Map<Object, Boolean> forwarded = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };
    /** HTTP/1.1 as a webhook sender speaks it (no h2c upgrade offered to the local server). */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    private volatile boolean stopped;
    private volatile CompletableFuture<?> inFlight;

    public FeedListener(ListenOptions options, PrintStream out, Clock clock) {
        this.options = options;
        this.out = out;
        this.clock = clock;
    }

    /** Parses {@code listen} arguments (the first is the command's name). */
    public static FeedListener of(String[] args, PrintStream out) {
        return new FeedListener(ListenOptions.parse(args), out, Clock.systemUTC());
    }

    /** Ends {@link #run} promptly, also while a feed read is held: the request in flight is cancelled. */
    public void stop() {
        stopped = true;
        CompletableFuture<?> f = inFlight;
        if (f != null) {
            f.cancel(true);
        }
    }

    /** Follows the feed until {@link #stop}; answers the exit status (1 when the feed refuses this listener). */
    public int run() throws InterruptedException {
        String cursor = readCursor();
        say("listening to " + ListenUrls.printable(options.service()) + " (from " + (cursor != null
                ? "the saved cursor" : options.fromStart() ? "the oldest event kept" : "now") + "), forwarding to "
                + ListenUrls.printable(options.forwardTo()));
        if (cursor == null) {
            cursor = options.fromStart() ? "start" : "latest";
        }
        Duration backoff = FIRST_BACKOFF;
        while (!stopped) {
            HttpResponse<String> answer;
            try {
                answer = send(HttpRequest.newBuilder(feedUri(cursor)).timeout(options.held().plusSeconds(20))
                        .header("Authorization", "Bearer " + options.key()).header("Accept", "application/json").GET()
                        .build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                if (stopped) {
                    break;
                }
                say(now() + "  feed unreachable (" + describe(e) + "), retrying in " + backoff.toMillis() + " ms");
                pause(backoff);
                backoff = longer(backoff);
                continue;
            }
            if (answer == null) {
                break;
            }
            int status = answer.statusCode();
            if (status == 429 || status >= 500) {
                Duration delay = status == 429 ? retryAfter(answer).orElse(backoff) : backoff;
                say(now() + "  feed answered " + status + ", retrying in " + delay.toMillis() + " ms");
                pause(delay);
                backoff = longer(backoff);
                continue;
            }
            if (status != 200) {
                return refused(answer);
            }
            backoff = FIRST_BACKOFF;
            Map<String, Object> page;
            try {
                page = Json.object(answer.body());
            } catch (IllegalArgumentException e) {
                say(now() + "  the feed's answer is not JSON (" + e.getMessage() + "), retrying");
                pause(FIRST_BACKOFF);
                continue;
            }
            @SuppressWarnings("unchecked") List<Map<String, Object>> events = (List<Map<String, Object>>) page.get("data");
            for (Map<String, Object> event : events) {
                FeedEntry entry = FeedEntry.of(event, options.secrets(), clock);
                if (!entry.valid()) {
                    say(now() + "  " + event.get("type") + "  " + event.get("id") + "  NOT forwarded: its"
                            + " signature does not verify with --secret (" + entry.failure() + "); stopping here");
                    return 1;
                }
                Object id = event.get("id");
                if (id != null && forwarded.containsKey(id)) {
                    say(now() + "  " + event.get("type") + "  " + event.get("id") + "  already forwarded, not again");
                } else if (forward(event, entry)) {
                    if (id != null) {
                        forwarded.put(id, Boolean.TRUE);
                    }
                } else {
                    return 0; // stopped before the local server took it: its cursor is not saved, it comes again
                }
                cursor = (String) event.get("cursor");
                saveCursor(cursor);
            }
            String next = (String) page.get("next_cursor");
            if (next != null && !next.equals(cursor)) {
                cursor = next;
                saveCursor(cursor); // past events of other types: the next read starts there
            }
        }
        return 0;
    }

    /** Posts one event until the local server answers; false when stopped first. */
    private boolean forward(Map<String, Object> event, FeedEntry entry) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(options.forwardTo()).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(entry.body()));
        entry.headers().forEach(request::header);
        Duration backoff = FIRST_BACKOFF;
        while (!stopped) {
            long start = System.nanoTime();
            try {
                // not cancelled by stop: an event the local server may have taken is finished and its cursor saved
                HttpResponse<Void> answer = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
                say(line(event, "-> " + answer.statusCode(), start));
                return true;
            } catch (IOException e) {
                if (stopped) {
                    return false;
                }
                say(line(event, "-> " + describe(e) + ", again in " + backoff.toMillis() + " ms", start));
                pause(backoff);
                backoff = longer(backoff);
            }
        }
        return false;
    }

    /** Sends a feed read while {@link #stop} can cancel it; null when stopped. */
    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<T>> f = http.sendAsync(request, handler);
        inFlight = f;
        try {
            if (stopped) {
                f.cancel(true);
            }
            while (true) {
                try {
                    return f.get(200, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (stopped) {
                        f.cancel(true);
                        return null;
                    }
                }
            }
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause);
        } finally {
            inFlight = null;
        }
    }

    private int refused(HttpResponse<String> answer) {
        String code = "";
        String message = answer.body();
        String oldest = null;
        try {
            @SuppressWarnings("unchecked") Map<String, Object> error = (Map<String, Object>) Json.object(answer.body()).get("error");
            code = (String) error.get("code");
            message = (String) error.get("message");
            oldest = (String) error.get("oldest_cursor");
        } catch (RuntimeException e) {
            // not the error shape: the raw answer is printed
        }
        say(now() + "  the feed refused this listener: " + answer.statusCode() + " " + code + ": " + message);
        if (answer.statusCode() == 410) {
            say("the saved cursor is past the feed's retention; the oldest cursor still valid is " + oldest
                    + " (write it to " + options.cursorFile() + " to resume there, or delete the file to start from now)");
        }
        return 1;
    }

    private URI feedUri(String cursor) {
        StringBuilder q = new StringBuilder("/api/v1/events?after=").append(encode(cursor)).append("&limit=100&wait=")
                .append(options.held().toSeconds());
        if (!options.events().isEmpty()) {
            q.append("&types=").append(encode(String.join(",", options.events())));
        }
        if (options.address() != null) {
            q.append("&address=").append(encode(options.address()));
        }
        return URI.create(options.service() + q.toString());
    }

    private String readCursor() {
        try {
            return Files.exists(options.cursorFile()) ? Files.readString(options.cursorFile()).strip() : null;
        } catch (IOException e) {
            throw new UncheckedIOException("the cursor file " + options.cursorFile() + " cannot be read", e);
        }
    }

    private void saveCursor(String cursor) {
        Path file = options.cursorFile().toAbsolutePath();
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temp, cursor + "\n");
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("the cursor file " + file + " cannot be written", e);
        }
    }

    private void pause(Duration d) throws InterruptedException {
        long until = System.nanoTime() + d.toNanos();
        while (!stopped && System.nanoTime() < until) {
            Thread.sleep(Math.min(50, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
    }

    private String line(Map<String, Object> event, String answer, long startNanos) {
        return String.format("%s  %s  %s  %s  %d ms", now(), event.get("type"), event.get("id"), answer,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    /** One line, with what the feed wrote in it unable to move the cursor, clear the screen or reorder the text. */
    private void say(String line) {
        out.println(escape(line));
    }

    static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE) {
                sb.append(String.format("\\u%04x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.toString();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private static Duration longer(Duration d) {
        Duration twice = d.multipliedBy(2);
        return twice.compareTo(LAST_BACKOFF) > 0 ? LAST_BACKOFF : twice;
    }

    private static java.util.Optional<Duration> retryAfter(HttpResponse<?> answer) {
        return answer.headers().firstValue("Retry-After").flatMap(v -> {
            try {
                return java.util.Optional.of(Duration.ofSeconds(Long.parseLong(v.strip())));
            } catch (NumberFormatException e) {
                return java.util.Optional.empty();
            }
        });
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
