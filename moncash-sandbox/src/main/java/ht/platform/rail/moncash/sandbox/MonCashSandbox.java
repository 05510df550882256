package ht.platform.rail.moncash.sandbox;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A MonCash stand-in written from MonCash's public REST API description: a real HTTP server on a loopback port with
 * the OAuth token endpoint, CreatePayment, RetrieveOrderPayment, RetrieveTransactionPayment, Transfert,
 * PrefundedTransactionStatus, PrefundedBalance and the customer's payment page ({@code /Payment/Redirect?token=}).
 *
 * <p>It keeps its own clock, moved only by {@link #advance}: access tokens die 59 s after issue (then 401), payment
 * tokens 10 min after creation. And it injects what a real rail does: a duplicate orderId or transfer reference is
 * refused, an answer can come after the client's timeout ({@link #slowNext}), a 5xx can come after the effect
 * ({@link #failNextAfterEffect}) or without it ({@link #failNextBeforeEffect}), a paid payment can show up in the
 * lookups only later ({@link #showPaymentsAfter}), and a transfer fails when the prefunded balance does not cover it.
 */
public final class MonCashSandbox implements AutoCloseable {

    public static final Duration TOKEN_LIFE = Duration.ofSeconds(59);
    public static final Duration PAYMENT_TOKEN_LIFE = Duration.ofMinutes(10);
    /** MonCash writes its text times in Haiti local time (the public sample: 12:36:55 local beside 16:36:55 UTC). */
    public static final ZoneId HAITI = ZoneId.of("America/Port-au-Prince");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS").withZone(HAITI);
    /** The public description's calls: path under {@code /Api/} and its one method. */
    private static final Map<String, String> ROUTES = Map.of(
            "oauth/token", "POST",
            "v1/CreatePayment", "POST",
            "v1/RetrieveTransactionPayment", "POST",
            "v1/RetrieveOrderPayment", "POST",
            "v1/CustomerStatus", "POST",
            "v1/Transfert", "POST",
            "v1/PrefundedTransactionStatus", "POST",
            "v1/PrefundedBalance", "GET");

    /** A business account: its API credentials and the return URL configured for it. */
    public record Account(String clientId, String clientSecret, AtomicReference<URI> returnUrl) { }

    /** A payment created with CreatePayment; paid once the customer pays on the redirect page. */
    public static final class Payment {
        public final String orderId;
        public final BigDecimal amount;
        public final String token;
        public final Account account;
        public final Instant created;
        volatile String transactionId;
        volatile String payer;
        volatile Instant paidAt;
        volatile Instant visibleAt;

        Payment(String orderId, BigDecimal amount, String token, Account account, Instant created) {
            this.orderId = orderId;
            this.amount = amount;
            this.token = token;
            this.account = account;
            this.created = created;
        }

        public boolean paid() {
            return paidAt != null;
        }

        public String transactionId() {
            return transactionId;
        }
    }

    /** A transfer carried out from the prefunded balance. */
    public record TransferRecord(String reference, String transactionId, BigDecimal amount, String receiver, String desc) { }

    private record AccessToken(Account account, Instant expiresAt) { }

    private sealed interface Fault permits Slow, FailAfter, FailBefore { }
    /** A fault for the next call whose body contains {@code match} (any call when null). */
    private record Pending(String match, Fault fault) { }
    private record Slow(Duration delay) implements Fault { }
    private record FailAfter() implements Fault { }
    private record FailBefore() implements Fault { }

    private static final class Answer extends RuntimeException {
        final int status;
        final String body;

        Answer(int status, String body) {
            super(null, null, false, false);
            this.status = status;
            this.body = body;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "moncash-sandbox");
        t.setDaemon(true);
        return t;
    });
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    private final SecureRandom random = new SecureRandom();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final Map<String, AccessToken> tokens = new ConcurrentHashMap<>();
    private final Map<String, Payment> paymentsByOrder = new ConcurrentHashMap<>();
    private final Map<String, Payment> paymentsByToken = new ConcurrentHashMap<>();
    private final Map<String, Payment> paymentsByTransaction = new ConcurrentHashMap<>();
    private final Map<String, TransferRecord> transfers = new ConcurrentHashMap<>();
    private final Map<String, ConcurrentLinkedQueue<Pending>> faults = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Set<String> fullWallets = ConcurrentHashMap.newKeySet();
    private volatile Duration visibilityDelay = Duration.ZERO;
    private BigDecimal prefunded = new BigDecimal("100000");

    private MonCashSandbox(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(executor);
        server.createContext("/Api/", this::api);
        server.createContext("/Moncash-middleware/", this::gateway);
        server.start();
    }

    /** Starts on {@code port} (0: a free one) with one business account. */
    public static MonCashSandbox start(int port, String clientId, String clientSecret, URI returnUrl) throws IOException {
        MonCashSandbox s = new MonCashSandbox(port);
        s.account(clientId, clientSecret, returnUrl);
        return s;
    }

    /** Adds (or replaces) a business account. */
    public void account(String clientId, String clientSecret, URI returnUrl) {
        accounts.put(clientId, new Account(clientId, clientSecret, new AtomicReference<>(returnUrl)));
    }

    /** Sets the return URL configured for an account (a service's URL is known only once it listens). */
    public void returnUrl(String clientId, URI returnUrl) {
        accounts.get(clientId).returnUrl().set(returnUrl);
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public String apiBase() {
        return base() + "/Api";
    }

    public String gatewayBase() {
        return base() + "/Moncash-middleware";
    }

    // ---------------------------------------------------------------- the test's controls

    public Instant now() {
        return now.get();
    }

    /** Sets the stand-in's clock, e.g. to either side of a daylight-time change in Haiti. */
    public void at(Instant instant) {
        now.set(instant.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }

    /** Every access token issued so far is refused (401) from now on, as after a revocation at MonCash. */
    public void revokeAccessTokens() {
        tokens.clear();
    }

    /** The receiver's wallet cannot hold more: a {@code Transfert} to it is refused with 403 "Maximum Account Balance". */
    public void fullWallet(String receiver) {
        fullWallets.add(receiver);
    }

    /** The receiver's wallet has room again. */
    public void walletWithRoom(String receiver) {
        fullWallets.remove(receiver);
    }

    /** Moves the stand-in's clock (token expiry, payment token expiry, delayed visibility). */
    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /** The next call of {@code endpoint} (e.g. "CreatePayment") takes effect but answers only after {@code delay}. */
    public void slowNext(String endpoint, Duration delay) {
        slowNext(endpoint, delay, null);
    }

    /** Like {@link #slowNext(String, Duration)}, for the next call whose body names {@code match} (an orderId, a reference). */
    public void slowNext(String endpoint, Duration delay, String match) {
        queue(endpoint).add(new Pending(match, new Slow(delay)));
    }

    /** The next call of {@code endpoint} takes effect (money moves), then answers 500. */
    public void failNextAfterEffect(String endpoint) {
        failNextAfterEffect(endpoint, null);
    }

    public void failNextAfterEffect(String endpoint, String match) {
        queue(endpoint).add(new Pending(match, new FailAfter()));
    }

    /** The next call of {@code endpoint} answers 500 without any effect. */
    public void failNextBeforeEffect(String endpoint) {
        failNextBeforeEffect(endpoint, null);
    }

    public void failNextBeforeEffect(String endpoint, String match) {
        queue(endpoint).add(new Pending(match, new FailBefore()));
    }

    /** The payment a customer's payment token belongs to. */
    public Optional<Payment> paymentOfToken(String token) {
        return Optional.ofNullable(paymentsByToken.get(token));
    }

    /** Payments paid from now on appear in the lookups only once the stand-in clock has moved {@code delay} further. */
    public void showPaymentsAfter(Duration delay) {
        visibilityDelay = delay;
    }

    public synchronized void prefundedBalance(BigDecimal balance) {
        prefunded = balance;
    }

    public synchronized BigDecimal prefundedBalance() {
        return prefunded;
    }

    /** How many requests reached {@code endpoint} (e.g. "Transfert", "oauth/token"). */
    public int calls(String endpoint) {
        AtomicInteger n = calls.get(endpoint);
        return n == null ? 0 : n.get();
    }

    public List<TransferRecord> transfers() {
        return new ArrayList<>(transfers.values());
    }

    public Optional<Payment> payment(String orderId) {
        return Optional.ofNullable(paymentsByOrder.get(orderId));
    }

    /** What the redirect page's button does: the customer {@code payer} pays the payment of {@code token}. */
    public String pay(String token, String payer) {
        Payment p = paymentsByToken.get(token);
        if (p == null || !now().isBefore(p.created.plus(PAYMENT_TOKEN_LIFE))) {
            throw new IllegalStateException("unknown or expired payment token");
        }
        synchronized (p) {
            if (p.paidAt == null) {
                p.transactionId = String.valueOf(2_000_000_000L + Math.floorMod(random.nextLong(), 999_999_999L));
                p.payer = payer;
                p.paidAt = now();
                p.visibleAt = p.paidAt.plus(visibilityDelay);
                paymentsByTransaction.put(p.transactionId, p);
            }
            return p.transactionId;
        }
    }

    // ---------------------------------------------------------------- the REST API

    private void api(HttpExchange ex) throws IOException {
        String route = ex.getRequestURI().getPath().substring("/Api/".length());
        try {
            String method = ROUTES.get(route);
            if (method == null) {
                throw new Answer(404, springError(404, "Not Found", "No message available", "/Api/" + route));
            }
            calls.computeIfAbsent(route.startsWith("v1/") ? route.substring(3) : route, k -> new AtomicInteger()).incrementAndGet();
            if (!method.equals(ex.getRequestMethod())) {
                ex.getResponseHeaders().set("Allow", method);
                throw new Answer(405, springError(405, "Method Not Allowed",
                        "Request method '" + ex.getRequestMethod() + "' not supported", "/Api/" + route));
            }
            if (route.equals("oauth/token")) {
                respond(ex, 200, issueToken(ex));
                return;
            }
            String endpoint = route.substring(3);
            authenticate(ex);
            JsonNode body = "GET".equals(method) ? json.createObjectNode() : readJson(ex);
            Fault fault = takeFault(endpoint, body.toString());
            if (fault instanceof FailBefore) {
                throw new Answer(500, error(500, "Internal Server Error", "Simulated failure"));
            }
            int status = endpoint.equals("CreatePayment") ? 202 : 200;
            String answer = switch (endpoint) {
                case "CreatePayment" -> createPayment(ex, body);
                case "RetrieveOrderPayment" -> retrieve(paymentsByOrder.get(required(body, "orderId")), endpoint);
                case "RetrieveTransactionPayment" -> retrieve(paymentsByTransaction.get(required(body, "transactionId")), endpoint);
                case "CustomerStatus" -> customerStatus(body);
                case "Transfert" -> transfer(body);
                case "PrefundedTransactionStatus" -> transferStatus(body);
                case "PrefundedBalance" -> balance();
                default -> throw new Answer(404, springError(404, "Not Found", "No message available", "/Api/" + route));
            };
            if (fault instanceof Slow slow) {
                sleep(slow.delay());
            }
            if (fault instanceof FailAfter) {
                throw new Answer(500, error(500, "Internal Server Error", "Simulated failure after the operation"));
            }
            respond(ex, status, answer);
        } catch (Answer a) {
            respond(ex, a.status, a.body);
        } catch (RuntimeException e) {
            respond(ex, 500, error(500, "Internal Server Error", e.getClass().getSimpleName()));
        }
    }

    private String issueToken(HttpExchange ex) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        Account account = null;
        if (auth != null && auth.startsWith("Basic ")) {
            String[] idSecret = new String(Base64.getDecoder().decode(auth.substring(6).trim()), StandardCharsets.UTF_8).split(":", 2);
            Account a = accounts.get(idSecret[0]);
            if (a != null && idSecret.length == 2 && a.clientSecret().equals(idSecret[1])) {
                account = a;
            }
        }
        String form = body(ex);
        if (account == null) {
            throw new Answer(401, "{\"error\":\"unauthorized\",\"error_description\":\"Bad credentials\"}");
        }
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            throw new Answer(400, "{\"error\":\"invalid_request\",\"error_description\":\"form body expected\"}");
        }
        Map<String, String> fields = query(form);
        if (!"client_credentials".equals(fields.get("grant_type")) || fields.get("scope") == null) {
            throw new Answer(400, "{\"error\":\"invalid_request\",\"error_description\":\"scope and grant_type=client_credentials are required\"}");
        }
        String value = HexFormat.of().formatHex(bytes(24));
        tokens.put(value, new AccessToken(account, now().plus(TOKEN_LIFE)));
        return obj().put("access_token", value).put("token_type", "bearer").put("expires_in", TOKEN_LIFE.toSeconds())
                .put("scope", "read,write").put("jti", HexFormat.of().formatHex(bytes(8))).toString();
    }

    private Account authenticate(HttpExchange ex) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        AccessToken t = auth == null || !auth.startsWith("Bearer ") ? null : tokens.get(auth.substring(7).trim());
        if (t == null || !now().isBefore(t.expiresAt())) {
            throw new Answer(401, "{\"error\":\"invalid_token\",\"error_description\":\""
                    + (t == null ? "Invalid access token" : "Access token expired") + "\"}");
        }
        ex.setAttribute("account", t.account());
        return t.account();
    }

    private String createPayment(HttpExchange ex, JsonNode body) {
        String orderId = required(body, "orderId");
        BigDecimal amount = amount(body, "amount");
        Account account = (Account) ex.getAttribute("account");
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(36));
        Payment p = new Payment(orderId, amount, token, account, now());
        if (paymentsByOrder.putIfAbsent(orderId, p) != null) {
            throw new Answer(400, error(400, "Bad Request", "The orderId " + orderId + " already exists"));
        }
        paymentsByToken.put(token, p);
        ObjectNode answer = obj().put("path", "/v1/CreatePayment");
        answer.putObject("payment_token").put("expired", TIME.format(p.created.plus(PAYMENT_TOKEN_LIFE)))
                .put("created", TIME.format(p.created)).put("token", token);
        return answer.put("timestamp", now().toEpochMilli()).put("status", 202).put("mode", "sandbox").toString();
    }

    private String retrieve(Payment p, String endpoint) {
        if (p == null || !p.paid() || now().isBefore(p.visibleAt)) {
            throw notFound("Transaction Not Found");
        }
        ObjectNode answer = obj().put("path", "/v1/" + endpoint);
        answer.putObject("payment").put("reference", p.orderId).put("transaction_id", p.transactionId)
                .put("cost", p.amount).put("message", "successful").put("payer", p.payer);
        return answer.put("timestamp", now().toEpochMilli()).put("status", 200).toString();
    }

    private String customerStatus(JsonNode body) {
        String account = required(body, "account");
        ObjectNode answer = obj().put("path", "/v1/CustomerStatus");
        ObjectNode status = answer.putObject("customerStatus").put("type", account.matches("[0-9]{8,15}") ? "fullkyc" : "unknown");
        status.putArray("status").add("registered").add("active");
        return answer.put("timestamp", now().toEpochMilli()).put("status", 200).put("mode", "sandbox").toString();
    }

    private synchronized String transfer(JsonNode body) {
        String reference = required(body, "reference");
        String receiver = required(body, "receiver");
        BigDecimal amount = amount(body, "amount");
        String desc = present(body, "desc");
        if (!receiver.matches("[0-9]{8,15}")) {
            throw new Answer(400, error(400, "Bad Request", "The receiver is not a MonCash account"));
        }
        if (transfers.containsKey(reference)) {
            throw new Answer(400, error(400, "Bad Request", "The reference " + reference + " already exists"));
        }
        if (fullWallets.contains(receiver)) {
            throw new Answer(403, obj().put("path", "/Api/v1/Transfert").put("error", "Forbidden")
                    .put("message", "Maximum Account Balance").put("timestamp", now().toEpochMilli()).put("status", 403).toString());
        }
        if (prefunded.compareTo(amount) < 0) {
            throw new Answer(400, error(400, "Bad Request", "Insufficient prefunded balance"));
        }
        prefunded = prefunded.subtract(amount);
        String transactionId = String.valueOf(3_000_000_000L + Math.floorMod(random.nextLong(), 999_999_999L));
        transfers.put(reference, new TransferRecord(reference, transactionId, amount, receiver, desc));
        ObjectNode answer = obj().put("path", "/Api/v1/Transfert");
        answer.putObject("transfer").put("transaction_id", transactionId).put("amount", amount).put("receiver", receiver)
                .put("message", "successful").put("desc", desc);
        return answer.put("timestamp", now().toEpochMilli()).put("status", 200).toString();
    }

    private String transferStatus(JsonNode body) {
        TransferRecord t = transfers.get(required(body, "reference"));
        if (t == null) {
            throw new Answer(404, obj().put("path", "/Api/v1/PrefundedTransactionStatus").put("error", "Not Found")
                    .put("message", "Can't find this transaction").put("timestamp", now().toEpochMilli()).put("status", 404).toString());
        }
        return obj().put("path", "/Api/v1/PrefundedTransactionStatus").put("transStatus", "successful")
                .put("timestamp", now().toEpochMilli()).put("status", 200).toString();
    }

    private synchronized String balance() {
        ObjectNode answer = obj().put("path", "/Api/v1/PrefundedBalance");
        // MonCash writes the balance as the exact expansion of a binary double (29814021.179999999701976776123046875)
        answer.putObject("balance").put("balance", new BigDecimal(prefunded.doubleValue())).put("message", "successful");
        return answer.put("timestamp", now().toEpochMilli()).put("status", 200).toString();
    }

    // ---------------------------------------------------------------- the customer's pages

    private void gateway(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath().substring("/Moncash-middleware/".length());
        try {
            if (path.equals("Payment/Redirect") && "GET".equals(ex.getRequestMethod())) {
                Payment p = payable(query(ex.getRequestURI().getRawQuery()).get("token"));
                URI back = p.account.returnUrl().get();
                String html = "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>MonCash</title></head><body>"
                        + "<h1>MonCash (stand-in)</h1><p>Montant : <span id=\"moncash-amount\">" + p.amount.toPlainString()
                        + " HTG</span></p><form method=\"post\" action=\"/Moncash-middleware/Payment/Pay\">"
                        + "<input type=\"hidden\" name=\"token\" value=\"" + p.token + "\">"
                        + "<label>Numéro MonCash <input id=\"moncash-payer\" name=\"payer\" value=\"50937000000\"></label>"
                        + "<button id=\"moncash-pay\" type=\"submit\">Payer</button></form>"
                        + "<p><a id=\"moncash-cancel\" href=\"" + back + "\">Annuler</a></p></body></html>";
                respond(ex, 200, "text/html;charset=UTF-8", html);
                return;
            }
            if (path.equals("Payment/Pay") && "POST".equals(ex.getRequestMethod())) {
                Map<String, String> form = query(body(ex));
                Payment p = payable(form.get("token"));
                String payer = form.getOrDefault("payer", "50937000000").replaceAll("[^0-9]", "");
                String transactionId = pay(p.token, payer);
                String back = p.account.returnUrl().get().toString();
                ex.getResponseHeaders().add("Location", back + (back.contains("?") ? "&" : "?") + "transactionId="
                        + URLEncoder.encode(transactionId, StandardCharsets.UTF_8));
                ex.sendResponseHeaders(302, -1);
                ex.close();
                return;
            }
            if (path.equals("Payment/Redirect") || path.equals("Payment/Pay")) {
                ex.getResponseHeaders().set("Allow", path.equals("Payment/Redirect") ? "GET" : "POST");
                throw new Answer(405, "Méthode non permise");
            }
            throw notFound("No such page");
        } catch (Answer a) {
            respond(ex, a.status, "text/html;charset=UTF-8", "<!DOCTYPE html><html><body><p id=\"moncash-error\">"
                    + a.body + "</p></body></html>");
        }
    }

    private Payment payable(String token) {
        Payment p = token == null ? null : paymentsByToken.get(token);
        if (p == null) {
            throw new Answer(404, "Paiement introuvable");
        }
        if (!now().isBefore(p.created.plus(PAYMENT_TOKEN_LIFE))) {
            throw new Answer(410, "Ce paiement a expiré");
        }
        return p;
    }

    // ---------------------------------------------------------------- plumbing

    private Fault takeFault(String endpoint, String body) {
        ConcurrentLinkedQueue<Pending> q = faults.get(endpoint);
        if (q == null) {
            return null;
        }
        for (Pending p : q) {
            if ((p.match() == null || body.contains(p.match())) && q.remove(p)) {
                return p.fault();
            }
        }
        return null;
    }

    private ConcurrentLinkedQueue<Pending> queue(String endpoint) {
        return faults.computeIfAbsent(endpoint, k -> new ConcurrentLinkedQueue<>());
    }

    private ObjectNode obj() {
        return json.createObjectNode();
    }

    private String error(int status, String error, String message) {
        return obj().put("status", status).put("error", error).put("message", message)
                .put("timestamp", now().toEpochMilli()).toString();
    }

    private Answer notFound(String message) {
        return new Answer(404, error(404, "Not Found", message));
    }

    private JsonNode readJson(HttpExchange ex) {
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new Answer(415, error(415, "Unsupported Media Type", "Content type '" + type + "' not supported"));
        }
        try {
            String b = body(ex);
            JsonNode node = json.readTree(b);
            if (node == null || !node.isObject()) {
                throw new Answer(400, error(400, "Bad Request", "A JSON object is required"));
            }
            return node;
        } catch (IOException e) {
            throw new Answer(400, error(400, "Bad Request", "Malformed JSON"));
        }
    }

    private String required(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || v.asText().isBlank()) {
            throw new Answer(400, error(400, "Bad Request", field + " is required"));
        }
        return v.asText();
    }

    /** A field that must be sent, possibly empty (the payout's {@code desc}). */
    private String present(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            throw new Answer(400, error(400, "Bad Request", field + " is required"));
        }
        return v.asText();
    }

    /** The shape of the error answers MonCash's server gives to a path or method it does not serve (Spring's). */
    private String springError(int status, String error, String message, String path) {
        return obj().put("timestamp", now().toEpochMilli()).put("status", status).put("error", error)
                .put("message", message).put("path", path).toString();
    }

    private BigDecimal amount(JsonNode body, String field) {
        JsonNode v = body.get(field);
        BigDecimal amount = v == null || !v.isNumber() ? null : v.decimalValue();
        if (amount == null || amount.signum() <= 0) {
            throw new Answer(400, error(400, "Bad Request", field + " must be a positive number"));
        }
        return amount;
    }

    private static String body(HttpExchange ex) {
        try {
            return new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Answer(400, "unreadable body");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange ex, int status, String body) throws IOException {
        respond(ex, status, "application/json", body);
    }

    private static void respond(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        try {
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
        } catch (IOException e) {
            // the client gave up waiting (a slow answer past its timeout)
        } finally {
            ex.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /**
     * {@code java ... MonCashSandbox [--port 8090] --account clientId:secret:returnUrl [--account ...]}: the stand-in
     * for {@code deploy/local/run.sh --moncash-sandbox}. Its clock follows the wall clock.
     */
    public static void main(String[] args) throws Exception {
        int port = 8090;
        List<String[]> accountArgs = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--account" -> accountArgs.add(args[i + 1].split(":", 3));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        MonCashSandbox s = new MonCashSandbox(port);
        for (String[] a : accountArgs) {
            s.account(a[0], a[1], URI.create(a[2]));
        }
        Instant started = Instant.now();
        s.now.set(started);
        Thread ticker = new Thread(() -> {
            while (true) {
                sleep(Duration.ofMillis(500));
                s.now.set(Instant.now());
            }
        }, "moncash-sandbox-clock");
        ticker.setDaemon(true);
        ticker.start();
        System.out.println("MonCash stand-in: API " + s.apiBase() + ", gateway " + s.gatewayBase() + ", accounts "
                + accountArgs.stream().map(a -> a[0]).toList());
        Thread.currentThread().join();
    }
}
