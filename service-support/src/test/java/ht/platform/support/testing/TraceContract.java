package ht.platform.support.testing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A payment's trace, as an on-call engineer follows it: the request that created the object, and in the same trace
 * the delivery attempt of its event (and the feed read that handed it out), with the event's id and type, the
 * attempt number, the receiver's host and answer. The services record spans in memory in tests ({@code TestSpans}).
 */
public final class TraceContract {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private TraceContract() { }

    /** A new sampled trace for a request: its id and the {@code traceparent} header that starts it. */
    public record Trace(String id, String traceparent) {
        public static Trace start() {
            HexFormat hex = HexFormat.of();
            byte[] trace = new byte[16];
            byte[] span = new byte[8];
            ThreadLocalRandom.current().nextBytes(trace);
            ThreadLocalRandom.current().nextBytes(span);
            String id = hex.formatHex(trace);
            return new Trace(id, "00-" + id + "-" + hex.formatHex(span) + "-01");
        }
    }

    /** The attempt's span is in the request's trace, below a span of it, with what the engineer looks for. */
    public static SpanData assertAttemptInTrace(InMemorySpanExporter spans, Trace trace, String eventId, String eventType,
                                                long attempt, String host, long status) {
        SpanData sent = await().atMost(BOUND).until(() -> one(spans, trace, "webhook deliver " + eventType), s -> s != null);
        assertEquals(SpanKind.CLIENT, sent.getKind());
        assertEquals(eventId, sent.getAttributes().get(AttributeKey.stringKey("webhook.event.id")));
        assertEquals(eventType, sent.getAttributes().get(AttributeKey.stringKey("webhook.event.type")));
        assertEquals(attempt, sent.getAttributes().get(AttributeKey.longKey("webhook.attempt")));
        assertEquals(host, sent.getAttributes().get(AttributeKey.stringKey("server.address")));
        assertEquals(status, sent.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        assertCommittedBy(spans, trace, sent);
        return sent;
    }

    /**
     * The receiver got the event the traced request created, by push: the attempt is in the trace, the receiver got no
     * trace context, and the request logged the trace id. Answers the event's id.
     */
    public static String assertPushedInTrace(InMemorySpanExporter spans, Trace trace, Receiver receiver, String eventType)
            throws java.io.IOException {
        Receiver.Received got = receiver.ofType(eventType).get(0);
        String eventId = eventId(got);
        assertAttemptInTrace(spans, trace, eventId, eventType, 1, "127.0.0.1", 200);
        assertNoTraceContextSent(got);
        assertLoggedWithTraceId(trace);
        return eventId;
    }

    /** A feed read that handed the event out left a span in the event's trace, linked to the read's own span. */
    public static void assertHandedOutInTrace(InMemorySpanExporter spans, Trace trace, String eventId, String eventType) {
        SpanData read = await().atMost(BOUND).until(() -> one(spans, trace, "webhook feed read " + eventType), s -> s != null);
        assertEquals(eventId, read.getAttributes().get(AttributeKey.stringKey("webhook.event.id")));
        assertEquals(1, read.getLinks().size(), "linked to the feed read's span");
        String reader = read.getLinks().get(0).getSpanContext().getTraceId();
        assertTrue(spans.getFinishedSpanItems().stream().anyMatch(s -> s.getTraceId().equals(reader)
                && s.getKind() == SpanKind.SERVER), "the feed read's own server span");
        assertCommittedBy(spans, trace, read);
    }

    /** A log line of the request carries its trace id as {@code trace_id} (the test profile's log file). */
    public static void assertLoggedWithTraceId(Trace trace) throws java.io.IOException {
        String field = "\"trace_id\":\"" + trace.id() + "\"";
        try (var lines = java.nio.file.Files.lines(java.nio.file.Path.of("target/test-app.log"))) {
            assertTrue(lines.anyMatch(l -> l.contains(field)), "a log line with " + field);
        }
    }

    /** The id of the event a receiver got. */
    public static String eventId(Receiver.Received received) throws java.io.IOException {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(received.body()).get("id").asText();
    }

    /** Merchants' endpoints get no trace context of ours. */
    public static void assertNoTraceContextSent(Receiver.Received received) {
        assertNull(received.header("traceparent"));
        assertNull(received.header("tracestate"));
    }

    private static void assertCommittedBy(InMemorySpanExporter spans, Trace trace, SpanData child) {
        List<SpanData> ofTrace = spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(trace.id())).toList();
        assertTrue(ofTrace.stream().anyMatch(s -> s.getKind() == SpanKind.SERVER), "the creating request's server span");
        assertTrue(ofTrace.stream().anyMatch(s -> s.getKind() == SpanKind.CLIENT && !s.getName().startsWith("webhook ")),
                "the creating request's database spans");
        assertTrue(ofTrace.stream().anyMatch(s -> s.getSpanId().equals(child.getParentSpanId())),
                "a child of a span of the creating request, got parent " + child.getParentSpanId() + " among " + ofTrace);
    }

    private static SpanData one(InMemorySpanExporter spans, Trace trace, String name) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(trace.id()) && s.getName().equals(name)).findFirst().orElse(null);
    }
}
