package ht.platform.wallet.events;

import ht.platform.support.testing.Deliveries;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.TraceContract;
import ht.platform.support.testing.TraceContract.Trace;
import ht.platform.wallet.TestApi;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;

/** A payment's trace shows its webhook's delivery attempt and the feed read that handed the event out. */
@QuarkusTest
class TraceTest {

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aPaymentsTraceShowsItsWebhookAttemptAndItsFeedRead() throws Exception {
        try (Receiver receiver = new Receiver()) {
            String key = TestApi.key(TestApi.project("Traced shop"), "test");
            as(key).body(Map.of("url", receiver.url(), "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(201);
            as(key).body(Map.of("delivery", "pull", "events", List.of("payment.created"))).post("/api/v1/webhooks")
                    .then().statusCode(201);
            Trace trace = Trace.start();
            as(key).header("traceparent", trace.traceparent())
                    .body(Map.of("amount", 1500, "currency", "HTG", "reference", "traced")).post("/api/v1/payments")
                    .then().statusCode(201);
            Deliveries.drainUntilIdle();

            String eventId = TraceContract.assertPushedInTrace(spans, trace, receiver, "payment.created");
            as(key).get("/api/v1/events?after=start").then().statusCode(200);
            TraceContract.assertHandedOutInTrace(spans, trace, eventId, "payment.created");
        }
    }
}
