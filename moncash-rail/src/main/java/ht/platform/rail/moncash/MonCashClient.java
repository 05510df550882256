package ht.platform.rail.moncash;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.rail.RailBreakers;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The MonCash REST API, as its business documentation describes it. Every call is asynchronous (JDK HttpClient on a
 * small bounded pool), carries connect and total timeouts, and goes through the rail's circuit breaker. The OAuth
 * token (≈59 s of life) is cached, renewed shortly before it expires and once more when MonCash answers 401.
 * Failures are {@link MonCashException}s whose kind says whether the call may have taken effect.
 */
public final class MonCashClient implements AutoCloseable {

    /** A token is renewed this long before MonCash would let it expire. */
    static final Duration TOKEN_MARGIN = Duration.ofSeconds(10);
    private static final int ERROR_EXCERPT = 200;

    private record Token(String value, Instant renewAt) { }

    private final MonCashConfig config;
    private final Clock clock;
    private final CircuitBreaker breaker;
    private final ExecutorService pool;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private Token token;
    private CompletableFuture<Token> tokenInFlight;

    public MonCashClient(MonCashConfig config, Clock clock) {
        this(config, clock, RailBreakers.of("moncash", clock));
    }

    public MonCashClient(MonCashConfig config, Clock clock, CircuitBreaker breaker) {
        this.config = config;
        this.clock = clock;
        this.breaker = breaker;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "moncash-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(config.connectTimeout()).executor(pool)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    public CircuitBreaker breaker() {
        return breaker;
    }

    /** Configured and its breaker closed: the rail can be offered right now. */
    public boolean available() {
        return RailBreakers.letsCallsThrough(breaker);
    }

    public URI gatewayBase() {
        return config.gatewayBase();
    }

    // ---------------------------------------------------------------- payments

    /** {@code POST /v1/CreatePayment {amount, orderId}}; the customer pays at {@link PaymentToken#redirectUrl()}. */
    public CompletableFuture<PaymentToken> createPayment(String orderId, BigDecimal amount) {
        ObjectNode body = json.createObjectNode().put("amount", amount).put("orderId", orderId);
        return post("CreatePayment", body, false).thenApply(answer -> {
            JsonNode pt = answer.path("payment_token");
            String value = text(pt, "token");
            if (value == null) {
                throw new MonCashException(MonCashException.Kind.UNKNOWN, 200, "CreatePayment", null, "CreatePayment answered without a payment token");
            }
            URI redirect = URI.create(config.gatewayBase() + "/Payment/Redirect?token="
                    + URLEncoder.encode(value, StandardCharsets.UTF_8));
            Instant answeredAt = answer.path("timestamp").canConvertToLong()
                    ? Instant.ofEpochMilli(answer.path("timestamp").asLong()) : clock.instant();
            return new PaymentToken(orderId, value, redirect,
                    MonCashTime.parse(text(pt, "created"), answeredAt).orElse(null),
                    MonCashTime.parse(text(pt, "expired"), answeredAt).orElse(null));
        });
    }

    /** {@code POST /v1/RetrieveOrderPayment {orderId}}: the truth about a payment; empty when MonCash has none. */
    public CompletableFuture<Optional<OrderPayment>> retrieveOrderPayment(String orderId) {
        return post("RetrieveOrderPayment", json.createObjectNode().put("orderId", orderId), true)
                .thenApply(this::payment);
    }

    /** {@code POST /v1/RetrieveTransactionPayment {transactionId}}: the payment behind a customer's return. */
    public CompletableFuture<Optional<OrderPayment>> retrieveTransactionPayment(String transactionId) {
        return post("RetrieveTransactionPayment", json.createObjectNode().put("transactionId", transactionId), true)
                .thenApply(this::payment);
    }

    private Optional<OrderPayment> payment(JsonNode answer) {
        if (answer == null) {
            return Optional.empty();
        }
        JsonNode p = answer.path("payment");
        if (p.isMissingNode() || p.isNull()) {
            throw new MonCashException(MonCashException.Kind.UNKNOWN, 200, "payment lookup answered without a payment");
        }
        return Optional.of(new OrderPayment(text(p, "reference"), text(p, "transaction_id"), decimal(p, "cost"),
                text(p, "message"), text(p, "payer")));
    }

    // ---------------------------------------------------------------- payouts

    /**
     * {@code POST /v1/Transfert {amount, receiver, desc, reference}} from the prefunded balance. An UNKNOWN failure
     * may have paid the receiver: look the reference up with {@link #transferStatus} before any second attempt.
     */
    public CompletableFuture<Transfer> transfer(String reference, BigDecimal amount, String receiver, String desc) {
        ObjectNode body = json.createObjectNode().put("amount", amount).put("receiver", receiver).put("desc", desc)
                .put("reference", reference);
        return post("Transfert", body, false).thenApply(answer -> {
            JsonNode t = answer.has("transfer") ? answer.path("transfer") : answer;
            BigDecimal sent = decimal(t, "amount");
            return new Transfer(reference, text(t, "transaction_id"), sent == null ? amount : sent,
                    text(t, "receiver") == null ? receiver : text(t, "receiver"), text(t, "message"));
        });
    }

    /**
     * {@code POST /v1/PrefundedTransactionStatus {reference}}: what became of a transfer; empty when MonCash has no
     * transfer with this reference (it never happened).
     */
    public CompletableFuture<Optional<String>> transferStatus(String reference) {
        return post("PrefundedTransactionStatus", json.createObjectNode().put("reference", reference), true)
                .thenApply(answer -> answer == null ? Optional.empty()
                        : Optional.ofNullable(text(answer, "transStatus")).or(() -> Optional.ofNullable(text(answer, "message"))));
    }

    /** {@code GET /v1/PrefundedBalance}, no body: what the prefunded account can still pay out (read as a decimal). */
    public CompletableFuture<BigDecimal> prefundedBalance() {
        return get("PrefundedBalance").thenApply(answer -> {
            JsonNode b = answer.path("balance");
            BigDecimal value = b.isObject() ? decimal(b, "balance") : decimal(answer, "balance");
            if (value == null) {
                throw new MonCashException(MonCashException.Kind.UNKNOWN, 200, "PrefundedBalance", null, "PrefundedBalance answered without a balance");
            }
            return value;
        });
    }

    // ---------------------------------------------------------------- transport

    /** {@code POST /v1/{call}} with a JSON body. */
    private CompletableFuture<JsonNode> post(String call, ObjectNode body, boolean notFoundIsAnswer) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        return call(call, notFoundIsAnswer, () -> HttpRequest.newBuilder(URI.create(config.apiBase() + "/v1/" + call))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
    }

    /** {@code GET /v1/{call}}, no body. */
    private CompletableFuture<JsonNode> get(String call) {
        return call(call, false, () -> HttpRequest.newBuilder(URI.create(config.apiBase() + "/v1/" + call)).GET());
    }

    /** One API call with the cached token; a 401 renews the token and repeats the call once (MonCash refused it unread). */
    private CompletableFuture<JsonNode> call(String call, boolean notFoundIsAnswer, Supplier<HttpRequest.Builder> request) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(new MonCashException(MonCashException.Kind.NOT_SENT, 0, call, null,
                    "MonCash is unavailable (circuit breaker open)"));
        }
        return send(call, request, notFoundIsAnswer, true);
    }

    private CompletableFuture<JsonNode> send(String call, Supplier<HttpRequest.Builder> request, boolean notFoundIsAnswer,
                                             boolean mayRenew) {
        return token().thenCompose(t -> exchange(request.get()
                        .header("Authorization", "Bearer " + t.value())
                        .header("Accept", "application/json"))
                .thenCompose(resp -> {
                    if (resp.statusCode() == 401 && mayRenew) {
                        forget(t);
                        return send(call, request, notFoundIsAnswer, false);
                    }
                    return CompletableFuture.completedFuture(answer(call, resp, notFoundIsAnswer));
                }));
    }

    /**
     * A 2xx is the answer; a 404 of a lookup is "MonCash has none" (null). 401 and 429 decided nothing (NOT_SENT), a
     * 5xx may have acted (UNKNOWN), any other 4xx is a definitive refusal (REFUSED) carrying MonCash's message.
     */
    private JsonNode answer(String call, HttpResponse<String> resp, boolean notFoundIsAnswer) {
        int status = resp.statusCode();
        if (status >= 200 && status < 300) {
            try {
                return json.readTree(resp.body());
            } catch (Exception e) {
                throw new MonCashException(MonCashException.Kind.UNKNOWN, status, call, null, call + " answered unreadable JSON");
            }
        }
        if (status == 404 && notFoundIsAnswer) {
            return null;
        }
        String said = errorMessage(resp.body());
        String why = call + " answered " + status + (said.isEmpty() ? "" : ": " + said);
        MonCashException.Kind kind = status >= 500 ? MonCashException.Kind.UNKNOWN
                : status == 401 || status == 429 ? MonCashException.Kind.NOT_SENT : MonCashException.Kind.REFUSED;
        throw new MonCashException(kind, status, call, said.isEmpty() ? null : said, why);
    }

    /** MonCash's error answers carry {@code error} and {@code message} (the public samples); else a bounded excerpt. */
    private String errorMessage(String body) {
        try {
            JsonNode node = json.readTree(body == null ? "" : body);
            String message = text(node, "message");
            if (message == null) {
                message = text(node, "error_description") != null ? text(node, "error_description") : text(node, "error");
            }
            if (message != null) {
                return excerpt(message);
            }
        } catch (Exception e) {
            // not JSON: the excerpt below
        }
        return excerpt(body);
    }

    private synchronized CompletableFuture<Token> token() {
        if (token != null && clock.instant().isBefore(token.renewAt())) {
            return CompletableFuture.completedFuture(token);
        }
        if (tokenInFlight == null) {
            String basic = Base64.getEncoder().encodeToString((config.clientId() + ":" + config.clientSecret())
                    .getBytes(StandardCharsets.UTF_8));
            Instant asked = clock.instant();
            CompletableFuture<Token> f = exchange(HttpRequest.newBuilder(URI.create(config.apiBase() + "/oauth/token"))
                    .header("Authorization", "Basic " + basic)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("scope=read,write&grant_type=client_credentials")))
                    .thenApply(resp -> {
                        JsonNode answer = answer("oauth/token", resp, false);
                        String value = text(answer, "access_token");
                        if (value == null) {
                            throw new MonCashException(MonCashException.Kind.UNKNOWN, resp.statusCode(), "oauth/token",
                                    null, "oauth/token answered without an access_token");
                        }
                        long life = answer.path("expires_in").asLong(59);
                        return new Token(value, asked.plusSeconds(life).minus(TOKEN_MARGIN));
                    });
            tokenInFlight = f;
            f.whenComplete((t, e) -> {
                synchronized (this) {
                    tokenInFlight = null;
                    if (t != null) {
                        token = t;
                    }
                }
            });
            return f;
        }
        return tokenInFlight;
    }

    private synchronized void forget(Token rejected) {
        if (token == rejected) {
            token = null;
        }
    }

    /** Sends with the total timeout; counts the answer (or its absence) against the breaker. */
    private CompletableFuture<HttpResponse<String>> exchange(HttpRequest.Builder request) {
        CompletableFuture<HttpResponse<String>> f;
        try {
            f = http.sendAsync(request.timeout(config.totalTimeout()).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        long started = System.nanoTime();
        return f.orTimeout(config.totalTimeout().toMillis() + 250, TimeUnit.MILLISECONDS)
                .handle((resp, e) -> {
                    long took = System.nanoTime() - started;
                    if (e != null) {
                        breaker.onError(took, TimeUnit.NANOSECONDS, e);
                        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                        throw new MonCashException(MonCashException.Kind.UNKNOWN, 0,
                                "no answer from MonCash: " + cause.getClass().getSimpleName());
                    }
                    if (resp.statusCode() >= 500) {
                        breaker.onError(took, TimeUnit.NANOSECONDS, new MonCashException(MonCashException.Kind.UNKNOWN,
                                resp.statusCode(), "MonCash answered " + resp.statusCode()));
                    } else {
                        breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                    }
                    return resp;
                });
    }

    // ---------------------------------------------------------------- parsing

    private static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static BigDecimal decimal(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isNumber()) {
            return v.decimalValue();
        }
        try {
            return new BigDecimal(v.asText().trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String excerpt(String body) {
        if (body == null) {
            return "";
        }
        String flat = body.replaceAll("\\s+", " ").trim();
        return flat.length() <= ERROR_EXCERPT ? flat : flat.substring(0, ERROR_EXCERPT) + "…";
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
