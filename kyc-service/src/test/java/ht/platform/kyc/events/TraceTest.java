package ht.platform.kyc.events;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.Deliveries;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.TraceContract;
import ht.platform.support.testing.TraceContract.Trace;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static ht.platform.kyc.Fixtures.as;

/** A verification's trace shows its webhook's delivery attempt, and another's the feed read that handed it out. */
@QuarkusTest
class TraceTest {

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aVerificationsTraceShowsItsWebhookAttemptAndItsFeedRead() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App pushed = Fixtures.app(null, receiver.url("/hooks"));
            Trace trace = create(pushed.testKey());
            Deliveries.drainUntilIdle();
            TraceContract.assertPushedInTrace(spans, trace, receiver, "verification.created");
        }
        Fixtures.App pulled = Fixtures.app(null, null);
        Trace read = create(pulled.testKey());
        String eventId = as(pulled.testKey()).get("/api/v1/events?after=start").then().statusCode(200)
                .extract().path("data[0].id");
        TraceContract.assertHandedOutInTrace(spans, read, eventId, "verification.created");
    }

    private static Trace create(String key) {
        Trace trace = Trace.start();
        as(key).header("traceparent", trace.traceparent()).header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"external_user_id\":\"traced\"}").post("/api/v1/verifications").then().statusCode(200);
        return trace;
    }
}
