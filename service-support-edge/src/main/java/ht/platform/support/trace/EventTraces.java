package ht.platform.support.trace;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.util.List;

/**
 * An event keeps the W3C trace context of the request that committed it ({@link #ofNewEvent}), so that each delivery
 * attempt and each feed read that hands the event out is a span in that request's trace. With tracing off
 * ({@code quarkus.otel.sdk.disabled}, see {@link TracingDefault}) no span is built at all: the disabled SDK Quarkus
 * still provides would sample, number and fill a span for every attempt and export it nowhere.
 */
@ApplicationScoped
public class EventTraces {

    static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("webhook.event.id");
    static final AttributeKey<String> EVENT_TYPE = AttributeKey.stringKey("webhook.event.type");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("webhook.attempt");
    static final AttributeKey<String> SERVER = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> OUTBOX = AttributeKey.stringKey("webhook.outbox");
    static final AttributeKey<Long> POSITION = AttributeKey.longKey("webhook.feed.position");

    private static final String TRACEPARENT = "traceparent";
    private static final TextMapGetter<String> STORED = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(TRACEPARENT);
        }

        @Override
        public String get(String carrier, String key) {
            return TRACEPARENT.equals(key) ? carrier : null;
        }
    };

    /** null with tracing off. */
    private final Tracer tracer;

    @Inject
    public EventTraces(OpenTelemetry openTelemetry,
                       @ConfigProperty(name = TracingDefault.DISABLED, defaultValue = "false") boolean off) {
        this.tracer = off ? null : openTelemetry.getTracer("ht.platform.outbox");
    }

    /** No traces at all (the engine's own tests put a runner together by hand). */
    public static EventTraces off() {
        return new EventTraces(OpenTelemetry.noop(), true);
    }

    /** The traceparent of the span now current, kept with a new event; {@code ""} when nothing traces it. */
    public String ofNewEvent() {
        SpanContext c = Span.current().getSpanContext();
        if (!c.isValid()) {
            return "";
        }
        return "00-" + c.getTraceId() + "-" + c.getSpanId() + "-" + c.getTraceFlags().asHex();
    }

    /** A delivery attempt's span, a child of the span that committed the event (a new trace when none was kept). */
    public Span attempt(String outbox, String traceParent, String eventId, String eventType, int attemptNumber,
                        String url) {
        if (tracer == null) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder("webhook deliver " + eventType).setSpanKind(SpanKind.CLIENT)
                .setParent(committedBy(traceParent))
                .setAttribute(OUTBOX, outbox).setAttribute(EVENT_ID, eventId).setAttribute(EVENT_TYPE, eventType)
                .setAttribute(ATTEMPT, (long) attemptNumber).setAttribute(SERVER, host(url))
                .startSpan();
    }

    /** Ends an attempt's span with the receiver's answer (0: none came). */
    public static void answered(Span span, boolean success, int statusCode, String error) {
        if (statusCode > 0) {
            span.setAttribute(STATUS, (long) statusCode);
        }
        if (!success) {
            span.setStatus(StatusCode.ERROR, error == null ? "" : error);
        }
        span.end();
    }

    /**
     * A feed read handed this event out: a span in the event's trace, linked to the read's own span.
     */
    public void handedOut(String outbox, String traceParent, String eventId, String eventType, long position) {
        if (tracer == null) {
            return;
        }
        SpanContext read = Span.current().getSpanContext();
        var builder = tracer.spanBuilder("webhook feed read " + eventType).setSpanKind(SpanKind.SERVER)
                .setParent(committedBy(traceParent))
                .setAttribute(OUTBOX, outbox).setAttribute(EVENT_ID, eventId).setAttribute(EVENT_TYPE, eventType)
                .setAttribute(POSITION, position);
        if (read.isValid()) {
            builder.addLink(read);
        }
        builder.startSpan().end();
    }

    private static Context committedBy(String traceParent) {
        if (traceParent == null || traceParent.isEmpty()) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceParent, STORED);
    }

    private static String host(String url) {
        try {
            String host = url == null ? null : URI.create(url).getHost();
            return host == null ? "" : host;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
