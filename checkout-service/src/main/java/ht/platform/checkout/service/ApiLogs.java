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
import ht.platform.support.time.Timestamps;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.regex.Pattern;

/**
 * The API logs of the dashboard: each authenticated API request (time, method, path, status, request id, key id,
 * latency, the answer with its secrets masked). Requests are queued when their answer has been sent and written in
 * batches, so the log never slows an answer down; the queue is bounded (under overload a log line is dropped,
 * never a request) and rows older than the retention are purged.
 */
@ApplicationScoped
public class ApiLogs {

    private static final Logger LOG = Logger.getLogger(ApiLogs.class);
    private static final Set<String> SECRET_FIELDS = Set.of("secret", "client_secret", "key", "token", "password", "api_key");
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");
    private static final int MAX_BODY = 8_192;

    /** One request as the dashboard shows it. */
    public record LogView(long seq, String request_id, String key_id, String method, String path, int status, long latency_ms,
                          String request_body, String response_body, String created_at) { }

    private final ArrayBlockingQueue<ApiLogEntry> queue = new ArrayBlockingQueue<>(10_000);

    @Inject
    ApiLogStore store;

    @Inject
    ObjectMapper mapper;

    @Inject
    Clock clock;

    @ConfigProperty(name = "platform.api-logs.retention", defaultValue = "P14D")
    Duration retention;

    /** Called once the answer is sent. */
    public void record(ApiLogEntry entry) {
        if (!queue.offer(entry)) {
            LOG.debugf("api log queue full; request %s not logged", entry.requestId());
        }
    }

    /**
     * A body as stored: JSON with every secret-bearing field and every credential-shaped value ({@link Credentials})
     * masked, cut to 8 KiB; null when it is not JSON.
     */
    public String mask(Object entity) {
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

    @Scheduled(every = "${platform.api-logs.flush-every:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    public Uni<Void> flush() {
        List<ApiLogEntry> batch = new ArrayList<>();
        queue.drainTo(batch, 500);
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return store.insert(batch)
                .onFailure().invoke(e -> LOG.warnf("api logs not written: %s", e.toString()))
                .onFailure().recoverWithNull();
    }

    @Scheduled(every = "1h", delayed = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> purge() {
        return store.deleteBefore(clock.instant().minus(retention));
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
