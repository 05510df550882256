package ht.platform.rail.moncash;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against MonCash's own public samples (src/test/resources/moncash/public-samples), served by a strict
 * server that answers only the method and path the public description gives each call (else 405 or 404): what the
 * client sends, and how it reads every sample.
 */
class PublicSamplesTest {

    record Request(String method, String path, String authorization, String contentType, String accept, String body) { }

    /** The one method per path of the public description, and the sample (with its HTTP status) each path answers. */
    static final Map<String, String> METHODS = Map.of(
            "/Api/oauth/token", "POST",
            "/Api/v1/CreatePayment", "POST",
            "/Api/v1/RetrieveTransactionPayment", "POST",
            "/Api/v1/RetrieveOrderPayment", "POST",
            "/Api/v1/Transfert", "POST",
            "/Api/v1/PrefundedTransactionStatus", "POST",
            "/Api/v1/PrefundedBalance", "GET");

    record Sample(int status, String file) { }

    final Map<String, Sample> answers = new ConcurrentHashMap<>(Map.of(
            "/Api/oauth/token", new Sample(200, "token.json"),
            "/Api/v1/CreatePayment", new Sample(202, "create-payment.json"),
            "/Api/v1/RetrieveTransactionPayment", new Sample(200, "retrieve-transaction-payment.json"),
            "/Api/v1/RetrieveOrderPayment", new Sample(200, "retrieve-order-payment.json"),
            "/Api/v1/Transfert", new Sample(200, "transfert.json"),
            "/Api/v1/PrefundedTransactionStatus", new Sample(200, "prefunded-transaction-status.json"),
            "/Api/v1/PrefundedBalance", new Sample(200, "prefunded-balance.json")));
    final List<Request> requests = new CopyOnWriteArrayList<>();
    HttpServer server;
    MonCashClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::serve);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        // the sample's own day, so that the sample token's 59 s are not over before it is used
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1558715815122L), ZoneOffset.UTC);
        client = new MonCashClient(MonCashConfig.of(base + "/Api", base + "/Moncash-middleware", "client-id", "client-secret",
                Duration.ofSeconds(2), Duration.ofSeconds(5)).orElseThrow(), clock);
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        byte[] body = ex.getRequestBody().readAllBytes();
        requests.add(new Request(ex.getRequestMethod(), path, ex.getRequestHeaders().getFirst("Authorization"),
                ex.getRequestHeaders().getFirst("Content-Type"), ex.getRequestHeaders().getFirst("Accept"),
                new String(body, StandardCharsets.UTF_8)));
        String method = METHODS.get(path);
        Sample sample = answers.get(path);
        byte[] out;
        int status;
        if (method == null) {
            status = 404;
            out = "{\"status\":404,\"error\":\"Not Found\",\"message\":\"No message available\"}".getBytes(StandardCharsets.UTF_8);
        } else if (!method.equals(ex.getRequestMethod())) {
            status = 405;
            out = "{\"status\":405,\"error\":\"Method Not Allowed\",\"message\":\"Request method not supported\"}".getBytes(StandardCharsets.UTF_8);
        } else {
            status = sample.status();
            out = fixture(sample.file());
        }
        ex.getResponseHeaders().set("Content-Type", "application/json;charset=UTF-8");
        ex.sendResponseHeaders(status, out.length);
        ex.getResponseBody().write(out);
        ex.close();
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = PublicSamplesTest.class.getResourceAsStream("/moncash/public-samples/" + name)) {
            return in.readAllBytes();
        }
    }

    static <T> T await(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    Request last(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void theTokenIsAskedWithBasicCredentialsAndTheSampleFormBody() throws Exception {
        await(client.prefundedBalance());
        Request token = last("/Api/oauth/token");
        assertEquals("POST", token.method());
        assertEquals("Basic " + Base64.getEncoder().encodeToString("client-id:client-secret".getBytes(StandardCharsets.UTF_8)),
                token.authorization());
        assertEquals("application/x-www-form-urlencoded", token.contentType());
        assertEquals("application/json", token.accept());
        assertEquals("scope=read,write&grant_type=client_credentials", token.body());
    }

    @Test
    void createPaymentReadsTheSampleTimesAsHaitiLocalTime() throws Exception {
        PaymentToken t = await(client.createPayment("1559796839", new BigDecimal("10")));
        Request r = last("/Api/v1/CreatePayment");
        assertEquals("POST", r.method());
        assertEquals("Bearer <Access-token>", r.authorization());
        assertEquals("application/json", r.contentType());
        assertEquals("application/json", r.accept());
        assertEquals("{\"amount\":10,\"orderId\":\"1559796839\"}", r.body());
        // "created": "2019-05-24 12:36:55:107" beside "timestamp": 1558715815122 (16:36:55.122 UTC): UTC-4 in May
        assertEquals(Instant.parse("2019-05-24T16:36:55.107Z"), t.createdAt());
        assertEquals(Instant.parse("2019-05-24T16:46:55.107Z"), t.expiresAt());
        assertTrue(Math.abs(t.createdAt().toEpochMilli() - 1558715815122L) < 1000, "created is the answer's own timestamp");
        assertEquals("/Moncash-middleware/Payment/Redirect?token=%3Cpayment-token%3E",
                t.redirectUrl().toString().substring(t.redirectUrl().toString().indexOf("/Moncash-middleware")));
    }

    @Test
    void bothPaymentLookupsReadTheSamplePayment() throws Exception {
        OrderPayment byTransaction = await(client.retrieveTransactionPayment("12874820")).orElseThrow();
        assertEquals("{\"transactionId\":\"12874820\"}", last("/Api/v1/RetrieveTransactionPayment").body());
        OrderPayment byOrder = await(client.retrieveOrderPayment("1559796839")).orElseThrow();
        assertEquals("{\"orderId\":\"1559796839\"}", last("/Api/v1/RetrieveOrderPayment").body());
        for (OrderPayment p : List.of(byTransaction, byOrder)) {
            assertEquals("1559796839", p.reference());
            assertEquals("12874820", p.transactionId());
            assertTrue(Htg.same(p.cost(), new BigDecimal("10.00")));
            assertEquals("50937007294", p.payer());
            assertTrue(p.successful());
        }
    }

    @Test
    void transfertSendsTheFourFieldsAndReadsTheSampleTransfer() throws Exception {
        Transfer t = await(client.transfer("ref-1", new BigDecimal("100"), "50937007294", "Test Api Transfer"));
        Request r = last("/Api/v1/Transfert");
        assertEquals("POST", r.method());
        assertEquals("{\"amount\":100,\"receiver\":\"50937007294\",\"desc\":\"Test Api Transfer\",\"reference\":\"ref-1\"}", r.body());
        assertEquals("Transaction id", t.transactionId());
        assertEquals(0, new BigDecimal("100").compareTo(t.amount()));
        assertEquals("successful", t.message());
    }

    @Test
    void aFullReceiverWalletIsADefinitiveRefusalCarryingMonCashsMessage() {
        answers.put("/Api/v1/Transfert", new Sample(403, "transfert-maximum-account-balance.json"));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> client.transfer("ref-2", new BigDecimal("100"), "50937007294", "payout").get(10, TimeUnit.SECONDS));
        MonCashException m = (MonCashException) e.getCause();
        assertEquals(MonCashException.Kind.REFUSED, m.kind());
        assertEquals(403, m.status());
        assertEquals("Transfert", m.call());
        assertEquals("Maximum Account Balance", m.moncashMessage());
    }

    @Test
    void transactionStatusReadsBothSamples() throws Exception {
        assertEquals(Optional.of("successful"), await(client.transferStatus("ref-1")));
        assertEquals("{\"reference\":\"ref-1\"}", last("/Api/v1/PrefundedTransactionStatus").body());
        answers.put("/Api/v1/PrefundedTransactionStatus", new Sample(404, "prefunded-transaction-status-not-found.json"));
        assertEquals(Optional.empty(), await(client.transferStatus("ref-unknown")), "Can't find this transaction: never made");
    }

    @Test
    void prefundedBalanceIsAGetWithoutBodyReadAsAnExactDecimal() throws Exception {
        BigDecimal balance = await(client.prefundedBalance());
        Request r = last("/Api/v1/PrefundedBalance");
        assertEquals("GET", r.method());
        assertEquals("", r.body());
        assertNull(r.contentType());
        assertEquals("Bearer <Access-token>", r.authorization());
        assertEquals(new BigDecimal("29814021.179999999701976776123046875"), balance);
        assertEquals(2_981_402_118L, Htg.cents(balance));
        assertTrue(Htg.covers(balance, new BigDecimal("29814021.18")));
        assertTrue(!Htg.covers(balance, new BigDecimal("29814021.19")));
    }

    @Test
    void everyCallUsesThePathAndMethodOfThePublicDescription() throws Exception {
        await(client.prefundedBalance());
        await(client.createPayment("o-1", new BigDecimal("10")));
        await(client.retrieveOrderPayment("o-1"));
        await(client.retrieveTransactionPayment("t-1"));
        await(client.transfer("r-1", new BigDecimal("1"), "50937007294", "d"));
        await(client.transferStatus("r-1"));
        for (Request r : requests) {
            assertEquals(METHODS.get(r.path()), r.method(), r.path());
        }
        assertEquals(METHODS.keySet(), requests.stream().map(Request::path).collect(java.util.stream.Collectors.toSet()));
    }
}
