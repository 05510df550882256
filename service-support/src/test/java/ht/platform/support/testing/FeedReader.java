package ht.platform.support.testing;

import ht.platform.webhooks.signing.WebhookVerifier;
import io.restassured.path.json.JsonPath;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A test's client of {@code GET /api/v1/events}: follows the feed page by page, and checks what it read. */
public final class FeedReader {

    /** The events read in order, and the cursor to resume from. */
    public record Read(List<Map<String, Object>> events, String cursor) { }

    private FeedReader() { }

    /**
     * Reads from {@code cursor} with {@code query} (e.g. {@code "&wait=2"}) until {@code enough} holds or {@code within}
     * has passed; {@code get} answers one page (the test's own checks of it included).
     */
    public static Read follow(Function<String, JsonPath> get, String cursor, String query,
                              Predicate<List<Map<String, Object>>> enough, Duration within) {
        List<Map<String, Object>> events = new ArrayList<>();
        long until = System.nanoTime() + within.toNanos();
        while (!enough.test(events) && System.nanoTime() < until) {
            JsonPath page = get.apply("/api/v1/events?after=" + cursor + query);
            events.addAll(page.getList("data"));
            cursor = page.getString("next_cursor");
        }
        return new Read(events, cursor);
    }

    /**
     * Each event's headers sign its exact body for {@code verifier}, the body matches the service's event catalogue,
     * and {@code more} checks what the service adds (headers, body).
     */
    public static void assertSigned(List<Map<String, Object>> events, WebhookVerifier verifier,
                                    BiConsumer<Map<String, String>, Map<String, Object>> more) throws Exception {
        for (Map<String, Object> e : events) {
            @SuppressWarnings("unchecked") Map<String, String> headers = (Map<String, String>) e.get("headers");
            byte[] body = ((String) e.get("body")).getBytes(StandardCharsets.UTF_8);
            assertTrue(verifier.verify(headers, body).valid(), "signature of " + e.get("id"));
            EventCatalogContract.assertMatchesSchema(body);
            more.accept(headers, e);
        }
    }
}
