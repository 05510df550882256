package ht.platform.checkout;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The service's spans in tests: kept in memory (quarkus.otel settings of the test profile), read by TraceContract. */
public class TestSpans {
    @Produces
    @Singleton
    InMemorySpanExporter spans() {
        return InMemorySpanExporter.create();
    }
}
