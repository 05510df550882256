package ht.platform.wallet.events;

import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.Deliveries;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.TestDatabase;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deliveries that a receiver or a row could spoil: an answer with bytes Postgres text cannot keep, a secret no
 * configured key opens, secrets sealed with the key of before a rotation. Each with a real receiver.
 */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class DeliveryFaultsTest {

    static final Duration BOUND = Duration.ofSeconds(20);
    static final byte[] NUL_ANSWER = "ok\0binary".getBytes(StandardCharsets.ISO_8859_1);
    /** {@code %test.platform.encryption.old-keys}: the key of before the rotation. */
    static final byte[] OLD_KEY = Base64.getDecoder().decode("b2xkLXRlc3Qta2V5LWJlZm9yZS1yb3RhdGlvbi0zMiE=");

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryPolicy policy;

    final List<Receiver> receivers = new ArrayList<>();

    @AfterEach
    void tearDown() {
        receivers.forEach(Receiver::close);
        receivers.clear();
    }

    Receiver receiver() throws Exception {
        Receiver r = new Receiver();
        receivers.add(r);
        return r;
    }

    void drain() {
        Deliveries.drainUntilIdle(runner, policy);
    }

    static String[] register(String key, String url) {
        JsonPath p = as(key).body(Map.of("url", url, "events", List.of("payment.created"))).post("/api/v1/webhooks")
                .then().statusCode(201).extract().jsonPath();
        return new String[] {p.getString("id"), p.getString("secret")};
    }

    static JsonPath deliveries(String key, String webhook) {
        return as(key).get("/api/v1/webhooks/" + webhook + "/deliveries?limit=100").then().statusCode(200).extract().jsonPath();
    }

    static void sql(String statement, Object... params) throws Exception {
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(statement)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
        }
    }

    @Test
    void aTwoHundredWithANulInItsBodyIsRecordedOnceAndTheNextEventsFollow() throws Exception {
        String key = TestApi.key(TestApi.project("Nul 200"), "test");
        Receiver rx = receiver();
        rx.answer.set(NUL_ANSWER);
        String[] wh = register(key, rx.url());
        for (int i = 0; i < 3; i++) {
            TestApi.payment(key, 100 + i);
        }
        Receiver.await("three deliveries", BOUND, () -> rx.received.size() >= 3);
        // the moved clock would end the lease of an attempt still being recorded, so wait until all three are
        Receiver.await("three attempts recorded", BOUND,
                () -> deliveries(key, wh[0]).getList("data.status").equals(List.of("delivered", "delivered", "delivered")));
        drain();
        clock.advance(Duration.ofMinutes(2)); // a delivery whose attempt was not recorded would be sent again now
        drain();
        assertEquals(3, rx.received.size(), "each event once: the attempts were recorded");
        JsonPath d = deliveries(key, wh[0]);
        assertEquals(List.of("delivered", "delivered", "delivered"), d.getList("data.status"));
        String excerpt = d.getString("data[0].attempts[0].response_excerpt");
        assertTrue(excerpt.startsWith("ok") && excerpt.endsWith("binary") && !excerpt.contains("\u0000"), excerpt);
    }

    @Test
    void aFiveHundredWithANulIsAFailedAttemptThatCountsPausesAndDoesNotBlockTheLane() throws Exception {
        String key = TestApi.key(TestApi.project("Nul 500"), "test");
        Receiver rx = receiver();
        rx.status.set(500);
        rx.answer.set(NUL_ANSWER);
        String[] wh = register(key, rx.url());
        sql("UPDATE wallet.webhook_endpoints SET consecutive_failures = 18 WHERE id = ?", wh[0]);
        TestApi.payment(key, 100);
        Receiver.await("first attempt", BOUND, () -> rx.received.size() >= 1);
        TestApi.payment(key, 200);
        Receiver.await("the next event passes the failing one", BOUND, () -> rx.received.size() >= 2);
        drain();
        JsonPath w = as(key).get("/api/v1/webhooks/" + wh[0]).then().statusCode(200).extract().jsonPath();
        assertEquals(20, w.getInt("consecutive_failures"), "both attempts counted");
        assertEquals("paused", w.getString("status"), "the 20th consecutive failure pauses the address");
        JsonPath d = deliveries(key, wh[0]);
        assertEquals(List.of(1, 1), d.getList("data.attempt_count"));
        assertEquals(500, d.getInt("data[0].attempts[0].status_code"));
        assertFalse(d.getString("data[0].attempts[0].response_excerpt").contains("\u0000"));
    }

    @Test
    void aDeliveryThatCannotBePreparedIsAFailedAttemptAndTheOthersArrive() throws Exception {
        String key = TestApi.key(TestApi.project("One bad row"), "test");
        Receiver good = receiver();
        Receiver bad = receiver();
        String[] ok = register(key, good.url());
        String[] broken = register(key, bad.url());
        byte[] stranger = new byte[32];
        new SecureRandom().nextBytes(stranger);
        sql("UPDATE wallet.webhook_endpoints SET secret_sealed = ? WHERE id = ?",
                new SecretBox(stranger).sealText("whsec_other", broken[0]), broken[0]);
        for (int i = 0; i < 3; i++) {
            TestApi.payment(key, 300 + i);
        }
        String laterKey = TestApi.key(TestApi.project("Created afterwards"), "test");
        Receiver later = receiver();
        register(laterKey, later.url());
        TestApi.payment(laterKey, 400);
        Receiver.await("the good address's deliveries", BOUND, () -> good.received.size() >= 3 && later.received.size() >= 1);
        drain();
        assertEquals(3, good.received.size());
        assertEquals(1, later.received.size());
        assertTrue(bad.received.isEmpty(), "nothing is sent unsigned");
        JsonPath d = deliveries(key, broken[0]);
        assertEquals(3, d.getList("data").size());
        for (int i = 0; i < 3; i++) {
            assertEquals("pending", d.getString("data[" + i + "].status"), "retried on the schedule");
            assertEquals(1, d.getInt("data[" + i + "].attempt_count"));
            String error = d.getString("data[" + i + "].attempts[0].error");
            assertTrue(error.contains("could not be prepared") && error.contains("cannot be decrypted"), error);
        }
    }

    @Test
    void secretsSealedWithTheKeyOfBeforeARotationStillSignEveryDelivery() throws Exception {
        String key = TestApi.key(TestApi.project("Rotated key"), "test");
        Receiver before = receiver();
        Receiver after = receiver();
        String[] old = register(key, before.url());
        sql("UPDATE wallet.webhook_endpoints SET secret_sealed = ? WHERE id = ?",
                new SecretBox(OLD_KEY).sealText(old[1], old[0]), old[0]);
        String[] fresh = register(key, after.url());
        int n = 12;
        for (int i = 0; i < n; i++) { // traffic while both keys' secrets are in use
            TestApi.payment(key, 500 + i);
        }
        Receiver.await("every delivery", BOUND, () -> before.received.size() >= n && after.received.size() >= n);
        drain();
        assertEquals(n, before.received.size());
        assertEquals(n, after.received.size());
        WebhookVerifier oldSecret = new WebhookVerifier(SignatureScheme.GATEWAY, List.of(old[1]), Duration.ofMinutes(5), clock);
        WebhookVerifier newSecret = new WebhookVerifier(SignatureScheme.GATEWAY, List.of(fresh[1]), Duration.ofMinutes(5), clock);
        before.received.forEach(r -> assertTrue(oldSecret.verify(r::header, r.body()).valid()));
        after.received.forEach(r -> assertTrue(newSecret.verify(r::header, r.body()).valid()));
    }
}
