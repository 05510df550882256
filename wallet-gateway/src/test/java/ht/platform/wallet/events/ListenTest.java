package ht.platform.wallet.events;

import ht.platform.support.feed.FeedWaiters;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Waiting;
import ht.platform.wallet.TestApi;
import ht.platform.webhooks.cli.BackgroundListener;
import ht.platform.webhooks.cli.FeedListener;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The signing library's {@code listen} against the running gateway: it follows the feed of a pull address and forwards
 * each event to a local receiver with its original headers; killed and started again it resumes from its cursor file.
 */
@QuarkusTest
class ListenTest {

    @TempDir
    Path dir;

    @Inject
    FeedWaiters feedReads;

    @Test
    void listenForwardsEveryEventVerifiablyAndResumesAfterARestartWithNothingLostOrTwice() throws Exception {
        String key = TestApi.key(TestApi.project("Listen " + System.nanoTime()), "test");
        JsonPath address = as(key).body(Map.of("delivery", "pull", "events", List.of("payment.created")))
                .post("/api/v1/webhooks").then().statusCode(201).extract().jsonPath();
        String secret = address.getString("secret");
        try (Receiver local = new Receiver()) {
            String[] args = {"listen", "--service", "http://localhost:" + RestAssured.port, "--key", key, "--secret", secret,
                    "--forward-to", local.url("/hooks"), "--cursor-file", dir.resolve("cursor").toString(), "--wait", "5"};
            int heldBefore = feedReads.held();
            Running first = new Running(args);
            Receiver.await(() -> first.output().contains("listening"), "listen started");
            // its first read (after=latest) is answered; the next one is held
            Waiting.until("the listener's read held", () -> feedReads.held() > heldBefore);
            List<String> before = List.of(TestApi.payment(key, 100), TestApi.payment(key, 200), TestApi.payment(key, 300));
            Receiver.await(() -> local.received.size() == 3, "three events forwarded");
            first.kill();

            List<String> during = List.of(TestApi.payment(key, 400), TestApi.payment(key, 500));
            Running second = new Running(args);
            Receiver.await(() -> local.received.size() == 5, "the two created while it was down");
            Waiting.holdsFor("nothing forwarded twice", Duration.ofMillis(500),
                    () -> assertEquals(5, local.received.size(), "nothing forwarded twice"));
            second.kill();

            assertEquals(5, new HashSet<>(local.received.stream().map(r -> r.header("X-Gateway-Event-ID")).toList()).size());
            WebhookVerifier verifier = new WebhookVerifier(SignatureScheme.GATEWAY, List.of(secret));
            for (Receiver.Received r : local.received) {
                assertTrue(verifier.verify(r::header, r.body()).valid(), "verify accepts what listen forwards");
                assertEquals("payment.created", r.header("X-Gateway-Event"));
            }
            List<String> objects = local.received.stream().map(r -> JsonPath.from(r.text()).getString("data.object.id")).toList();
            assertEquals(List.of(before.get(0), before.get(1), before.get(2), during.get(0), during.get(1)), objects,
                    "in commit order");
            assertTrue(first.output().contains("payment.created"), first.output());
        }
    }

    /** The listener on its own thread, as a process the developer runs and stops. */
    static final class Running {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final BackgroundListener listener;

        Running(String[] args) {
            listener = BackgroundListener.start(FeedListener.of(args, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        }

        String output() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        void kill() throws InterruptedException {
            assertEquals(0, listener.stop(Duration.ofSeconds(10)));
        }
    }
}
