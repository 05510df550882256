package ht.platform.checkout.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.checkout.model.ApiLogEntry;
import ht.platform.checkout.model.ApiLogStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Credentials;
import ht.platform.support.errors.ApiException;
import ht.platform.support.health.SchemaPending;
import ht.platform.support.health.SchemaReadiness;
import ht.platform.support.time.Timestamps;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * The API logs of the dashboard: each authenticated API request (time, method, path, status, request id, key id,
 * latency, the answer with its secrets masked). Requests are queued when their answer has been sent and written in
 * batches, so the log never slows an answer down. A flush writes statements of 500 rows for as long as 500 are
 * queued, so the log keeps up with any rate the database can take; the queue is bounded (beyond it a log line is
 * dropped and counted, never a request, and nothing is masked for a line that is not kept) and rows older than the
 * retention are purged.
 */
@ApplicationScoped
public class ApiLogs {

    private static final Logger LOG = Logger.getLogger(ApiLogs.class);
    private static final Set<String> SECRET_FIELDS = Set.of("secret", "client_secret", "key", "token", "password", "api_key");
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");
    private static final int MAX_BODY = 8_192;
    private static final int BATCH = 500;
    private static final int PURGE_BATCH = 5_000;
    private static final Duration DROP_WARNING_EVERY = Duration.ofMinutes(1);

    /** One request as the dashboard shows it. */
    public record LogView(long seq, String request_id, String key_id, String method, String path, int status, long latency_ms,
                          String request_body, String response_body, String created_at) { }

    private final ArrayBlockingQueue<ApiLogEntry> queue = new ArrayBlockingQueue<>(10_000);
    private final LongAdder dropped = new LongAdder();
    private final AtomicReference<CompletableFuture<Void>> running = new AtomicReference<>();
    private volatile Instant lastDropWarning = Instant.EPOCH;

    @Inject
    ApiLogStore store;

    @Inject
    @Readiness
    SchemaReadiness schema;

    @Inject
    ObjectMapper mapper;

    @Inject
    Clock clock;

    @ConfigProperty(name = "platform.api-logs.retention", defaultValue = "P14D")
    Duration retention;

    /** Called once the answer is sent: the request's line, its bodies masked only when the line can be kept. */
    public void record(ApiPrincipal caller, String requestId, String method, String path, int status, long latencyMs,
                       Object requestBody, Object answer) {
        if (queue.remainingCapacity() == 0) {
            dropped.increment();
            return;
        }
        record(new ApiLogEntry(0, requestId, caller.ownerId(), caller.mode(), caller.keyId(), method, path, status, latencyMs,
                mask(requestBody), mask(answer), clock.instant()));
    }

    public void record(ApiLogEntry entry) {
        if (!queue.offer(entry)) {
            dropped.increment();
        } else if (queue.size() >= BATCH && running.get() == null && schema.reached()) {
            flush();
        }
    }

    /** Lines waiting to be written. */
    public int queued() {
        return queue.size();
    }

    /**
     * A body as stored: JSON with every secret-bearing field and every credential-shaped value ({@link Credentials})
     * masked, cut to 8 KiB; null when it is not JSON.
     */
    private String mask(Object entity) {
        if (entity == null || entity instanceof byte[] bytes && bytes.length == 0) {
            return null;
        }
        try {
            // idempotent answers arrive already serialized
            JsonNode node = entity instanceof String text ? mapper.readTree(text)
                    : entity instanceof byte[] bytes ? mapper.readTree(bytes) : mapper.valueToTree(entity);
            maskIn(node);
            String text = mapper.writeValueAsString(node);
            return text.length() > MAX_BODY ? text.substring(0, MAX_BODY) + "…" : text;
        } catch (IllegalArgumentException | java.io.IOException e) {
            return null;
        }
    }

    private static void maskIn(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode value = object.get(name);
                if (SECRET_FIELDS.contains(name) && value.isTextual()) {
                    object.put(name, Credentials.MASK);
                } else if (value.isTextual() && Credentials.contains(value.asText())) {
                    object.put(name, Credentials.mask(value.asText()));
                } else {
                    maskIn(value);
                }
            }
        } else if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode item = array.get(i);
                if (item.isTextual() && Credentials.contains(item.asText())) {
                    array.set(i, Credentials.mask(item.asText()));
                } else {
                    maskIn(item);
                }
            }
        }
    }

    /**
     * Writes what is queued, a batch, then more batches while a whole one is waiting (a remainder waits for the next
     * flush, so that a busy service writes a few statements of 500 rows a second, not a stream of small ones), until a
     * write fails (the next flush goes on). One flush runs at a time: called while one runs, it completes when that one
     * does. Besides the schedule, a flush starts as soon as a batch is queued, so the log keeps up with more than one
     * batch a second.
     */
    @Scheduled(every = "${platform.api-logs.flush-every:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    public Uni<Void> flush() {
        return flush(false);
    }

    /** Writes everything queued, the last part of a batch too; after a flush that was running. */
    public Uni<Void> flushAll() {
        return flush(true);
    }

    /** A pod that stops writes its queued lines first (at most 5 s), so a rollout loses no log line. */
    void writeQueuedAtShutdown(@Observes ShutdownEvent event) {
        if (queue.isEmpty() || !schema.reached()) {
            return;
        }
        try {
            flushAll().await().atMost(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.warnf("%d api log lines not written at shutdown: %s", queue.size(), e.toString());
        }
    }

    private Uni<Void> flush(boolean all) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> current = running.compareAndExchange(null, mine);
        if (current != null) {
            Uni<Void> runningOne = Uni.createFrom().completionStage(current);
            return all ? runningOne.chain(() -> flush(true)) : runningOne;
        }
        warnOfDrops();
        writeQueued(all).subscribe().with(done -> finish(mine), failed -> finish(mine));
        return Uni.createFrom().completionStage(mine);
    }

    private void finish(CompletableFuture<Void> flush) {
        running.set(null);
        flush.complete(null);
    }

    private Uni<Void> writeQueued(boolean all) {
        List<ApiLogEntry> batch = new ArrayList<>(BATCH);
        queue.drainTo(batch, BATCH);
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return store.insert(batch)
                .onItem().transformToUni(written -> queue.size() >= (all ? 1 : BATCH) ? writeQueued(all) : Uni.createFrom().voidItem())
                .onFailure().invoke(e -> LOG.warnf("%d api log lines not written: %s", batch.size(), e.toString()))
                .onFailure().recoverWithNull();
    }

    private void warnOfDrops() {
        Instant now = clock.instant();
        if (now.isBefore(lastDropWarning.plus(DROP_WARNING_EVERY))) {
            return;
        }
        long lost = dropped.sumThenReset();
        if (lost > 0) {
            lastDropWarning = now;
            LOG.warnf("%d api log lines dropped: more requests were answered than the database took", lost);
        }
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> purge() {
        return purgeBefore(clock.instant().minus(retention));
    }

    /** Rows older than the cutoff go in short statements, so a day of logs is never one long transaction. */
    public Uni<Void> purgeBefore(Instant cutoff) {
        return store.deleteBefore(cutoff, PURGE_BATCH)
                .chain(deleted -> deleted < PURGE_BATCH ? Uni.createFrom().voidItem() : purgeBefore(cutoff));
    }

    /** This tenant's requests, newest first: by request id, or filtered by status and path prefix. */
    public Uni<List<LogView>> search(ApiPrincipal caller, String requestId, Integer status, String pathPrefix, Long before, int limit) {
        if (requestId != null && !REQUEST_ID.matcher(requestId).matches()) {
            throw ApiException.invalid("request_id", "request_id is not a request id");
        }
        if (status != null && (status < 100 || status > 599)) {
            throw ApiException.invalid("status", "status must be an HTTP status code");
        }
        return store.search(caller.ownerId(), caller.mode(), requestId, status, pathPrefix, before, limit)
                .map(rows -> rows.stream().map(ApiLogs::view).toList());
    }

    public Uni<LogView> get(ApiPrincipal caller, long seq) {
        return store.get(caller.ownerId(), caller.mode(), seq).map(ApiLogs::view);
    }

    private static LogView view(ApiLogEntry e) {
        // masked again as shown: rows stored before the shape rule may hold a link in clear
        return new LogView(e.seq(), e.requestId(), e.keyId(), e.method(), e.path(), e.status(), e.latencyMs(),
                Credentials.mask(e.requestBody()), Credentials.mask(e.responseBody()), Timestamps.seconds(e.at()));
    }
}
