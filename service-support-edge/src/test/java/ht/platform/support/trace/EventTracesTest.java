package ht.platform.support.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With tracing off a delivery attempt builds no span, even on an SDK that would build one (the disabled SDK Quarkus
 * provides has no exporter but still samples); with tracing on the attempt is a child of the committing request.
 */
class EventTracesTest {

    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().build()).build();

    @Test
    void offBuildsNoSpanOnAnSdkThatWouldSample() {
        Span span = new EventTraces(sdk, true).attempt("payments", PARENT, "evt_1", "payment.succeeded", 1, "https://example.com/hook");
        assertFalse(span.getSpanContext().isValid());
        assertFalse(span.isRecording());
    }

    @Test
    void onMakesTheAttemptAChildOfTheCommittingRequest() {
        Span span = new EventTraces(sdk, false).attempt("payments", PARENT, "evt_1", "payment.succeeded", 1, "https://example.com/hook");
        assertTrue(span.isRecording());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", span.getSpanContext().getTraceId());
        span.end();
    }
}
