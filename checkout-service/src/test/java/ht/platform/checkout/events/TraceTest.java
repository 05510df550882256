package ht.platform.checkout.events;

import ht.platform.checkout.TestApi;
import ht.platform.support.testing.Deliveries;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.TraceContract;
import ht.platform.support.testing.TraceContract.Trace;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static ht.platform.checkout.TestApi.as;

/** A payment intent's trace shows its webhook's delivery attempt and the feed read that handed the event out. */
@QuarkusTest
class TraceTest {

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aPaymentIntentsTraceShowsItsWebhookAttemptAndItsFeedRead() throws Exception {
        try (Receiver receiver = new Receiver()) {
            String key = TestApi.key(TestApi.application("Traced shop"), "test", null);
            as(key).body(Map.of("url", receiver.url("/hooks"))).post("/api/v1/webhook_endpoints").then().statusCode(201);
            as(key).body(Map.of("delivery", "pull")).post("/api/v1/webhook_endpoints").then().statusCode(201);
            Trace trace = Trace.start();
            as(key).header("traceparent", trace.traceparent())
                    .body(Map.of("amount", "150.00", "currency", "HTG", "external_reference", "traced"))
                    .post("/api/v1/payment_intents").then().statusCode(201);
            Deliveries.drainUntilIdle();

            String eventId = TraceContract.assertPushedInTrace(spans, trace, receiver, "payment_intent.created");
            as(key).get("/api/v1/events?after=start").then().statusCode(200);
            TraceContract.assertHandedOutInTrace(spans, trace, eventId, "payment_intent.created");
        }
    }
}
