package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import ht.platform.support.testing.Waiting;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.VerificationResult;
import ht.platform.webhooks.signing.WebhookVerifier;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The README's demo receiver as a test part: a real HTTP server on 127.0.0.1 that verifies every delivery with
 * shared-webhook-signing (answering 400 to one that fails) and keeps the verified events.
 */
public final class VerifyingReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final List<JsonNode> verified = new CopyOnWriteArrayList<>();
    private final List<String> rejected = new CopyOnWriteArrayList<>();
    private volatile WebhookVerifier verifier;

    public VerifyingReceiver(SignatureScheme scheme) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            WebhookVerifier current = verifier();
            VerificationResult result = current == null ? null : current.verify(exchange.getRequestHeaders()::getFirst, body);
            if (result != null && result.valid()) {
                verified.add(JSON.readTree(body));
            } else {
                rejected.add((result == null ? "no secret yet" : result.failure()) + " " + new String(body, java.nio.charset.StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(result != null && result.valid() ? 200 : 400, -1);
            exchange.close();
        });
        server.start();
        this.scheme = scheme;
    }

    private final SignatureScheme scheme;
    private Path secretFile;

    /** A receiver whose secret a tour in another process writes to {@code secretFile} when the address is created. */
    public VerifyingReceiver(SignatureScheme scheme, Path secretFile) throws IOException {
        this(scheme);
        this.secretFile = secretFile;
    }

    /** The secret the address was given (shown once at creation). */
    public void secret(String secret) {
        verifier = new WebhookVerifier(scheme, List.of(secret));
    }

    private WebhookVerifier verifier() throws IOException {
        if (verifier == null && secretFile != null && Files.exists(secretFile)) {
            String secret = Files.readString(secretFile).trim();
            if (!secret.isEmpty()) {
                secret(secret);
            }
        }
        return verifier;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    /** The first verified event that matches, waiting up to a minute for it (deliveries are asynchronous). */
    public JsonNode await(String type, Predicate<JsonNode> which) {
        try {
            return Waiting.await("a verified " + type, Duration.ofSeconds(60)).until(() -> first(type, which), Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no verified " + type + " within 60 s; verified: " + types() + "; rejected: " + rejected);
        }
    }

    private JsonNode first(String type, Predicate<JsonNode> which) {
        for (JsonNode event : verified) {
            if (type.equals(event.path("type").asText()) && which.test(event)) {
                return event;
            }
        }
        return null;
    }

    private List<String> types() {
        List<String> out = new ArrayList<>();
        verified.forEach(e -> out.add(e.path("type").asText()));
        return out;
    }

    public List<String> rejected() {
        return rejected;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
