package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.AuthSettings;
import ht.platform.support.tenancy.Tenancy;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys nobody holds cost the database one lookup, and a client sending many of them is refused before the database.
 * Each test speaks from a loopback address of its own (127.47.x.y), so the budgets of failures per client address are
 * its own and no other test's.
 */
@QuarkusTest
class UnknownKeyTest {

    @Inject
    Tenancy tenancy;

    @Inject
    AuthSettings settings;

    @Inject
    Pool pool;

    @TestHTTPResource("/api/v1/payment_methods")
    URI methods;

    record Answer(int status, String head, String body) { }

    @Test
    void anUnknownKeyIsLookedUpOnceThenRefusedFromMemory() throws IOException {
        String client = freshClient();
        String key = madeUp();
        long before = tenancy.keyLookups();
        assertEquals(401, get(client, key).status());
        Answer again = get(client, key);
        assertEquals(401, again.status());
        assertTrue(again.body().contains("\"code\":\"UNAUTHENTICATED\""), again.body());
        assertEquals(1, tenancy.keyLookups() - before, "the second attempt of an unknown key did not go to the database");
    }

    @Test
    void theRefusalBeforeRoutingAnswersTheSameBytesAsTheRestLayer() throws IOException {
        String client = freshClient();
        String key = madeUp();
        Answer afterLookup = get(client, key); // not known yet: looked up, refused by the REST layer's filter
        Answer fromMemory = get(client, key); // known unknown: refused by the router
        assertEquals(401, afterLookup.status());
        assertEquals(headerLines(afterLookup.head()), headerLines(fromMemory.head()));
        assertEquals(withoutRequestId(afterLookup.body()), withoutRequestId(fromMemory.body()));
    }

    /** The status line and the header lines, less the date and request id, in order of their text (HTTP's order is not meaningful). */
    private static java.util.List<String> headerLines(String head) {
        return withoutRequestId(head).lines().map(l -> l.toLowerCase(java.util.Locale.ROOT)).sorted().toList();
    }

    /** The answer less what differs between any two answers: the date, and the request id in header and body. */
    private static String withoutRequestId(String text) {
        return text.replaceAll("(?im)^(date|checkout-request-id): .*\r\n", "")
                .replaceAll("\"request_id\":\"[^\"]*\"", "\"request_id\":\"?\"");
    }

    @Test
    void aClientPastItsFailuresGets429WithRetryAfterAndOthersDoNot() throws IOException {
        String client = freshClient();
        for (int i = 0; i < settings.failures().burst(); i++) {
            assertEquals(401, get(client, madeUp()).status());
        }
        long before = tenancy.keyLookups();
        Answer refused = get(client, madeUp());
        assertEquals(429, refused.status(), refused.head());
        assertTrue(refused.head().toLowerCase().matches("(?s).*\r\nretry-after: [1-9][0-9]*\r\n.*"), refused.head());
        assertTrue(refused.body().contains("\"code\":\"RATE_LIMITED\"") && refused.body().contains("\"request_id\""),
                refused.body());
        assertEquals(0, tenancy.keyLookups() - before, "refused before the database");
        assertEquals(401, get(freshClient(), madeUp()).status(), "another client still gets its own answer");
    }

    @Test
    void aKeyIssuedAfterItWasFoundUnknownWorksAtOnce() throws IOException {
        String client = freshClient();
        String app = TestApi.application("Unknown then issued " + System.nanoTime());
        String key = madeUp();
        assertEquals(401, get(client, key).status());
        // the key comes to exist without this replica issuing it (as on another replica): remembered unknown meanwhile
        pool.preparedQuery("INSERT INTO checkout.api_keys (id, application_id, key_hash, key_hint, mode, scopes, created_at)"
                        + " VALUES ($1, $2, $3, $4, 'test', $5, now())")
                .execute(Tuple.of("key_t" + System.nanoTime(), app, ApiKeys.hash(key), ApiKeys.hint(key),
                        new String[] {"payment_intents:read"}))
                .await().indefinitely();
        assertEquals(401, get(client, key).status(), "still remembered unknown");
        TestApi.key(app, "test", null); // a key issued on this replica forgets the unknown ones
        assertEquals(200, get(client, key).status());
    }

    private Answer get(String client, String key) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(client, 0));
            socket.connect(new InetSocketAddress(methods.getHost(), methods.getPort()), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + methods.getPath() + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + key + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String text = read(socket.getInputStream());
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split + 2);
            return new Answer(Integer.parseInt(text.substring(9, 12)), head, split < 0 ? "" : text.substring(split + 4));
        }
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String freshClient() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "127.47." + r.nextInt(1, 255) + "." + r.nextInt(1, 255);
    }

    private static String madeUp() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return "co_test_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }
}
