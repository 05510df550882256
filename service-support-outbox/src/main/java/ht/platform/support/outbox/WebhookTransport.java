package ht.platform.support.outbox;

import ht.platform.webhooks.destination.AddressDecision;
import ht.platform.webhooks.destination.OutgoingUrlPolicy;
import ht.platform.webhooks.destination.UrlDecision;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends one webhook POST. The host is resolved here and the connection pinned to a checked address, so the
 * address that was judged public is the one connected to (no DNS rebinding); Host and SNI keep the name.
 * Redirects are never followed and the whole exchange is bounded by the send timeout.
 */
@ApplicationScoped
public class WebhookTransport {

    static final int EXCERPT_BYTES = 1024;

    private final WebhookSettings settings;
    private final HostResolver resolver;
    private final OutgoingUrlPolicy defaultPolicy;
    private final HttpClient client;

    public WebhookTransport(Vertx vertx, WebhookSettings settings) {
        this(vertx, settings, new SystemHostResolver());
    }

    @Inject
    public WebhookTransport(Vertx vertx, WebhookSettings settings, HostResolver resolver) {
        this.settings = settings;
        this.resolver = resolver;
        this.defaultPolicy = new OutgoingUrlPolicy(settings.allowPrivateTargets());
        int timeoutMs = (int) settings.sendTimeout().toMillis();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(timeoutMs)
                .setForceSni(true)
                .setVerifyHost(true)
                .setKeepAlive(true)
                .setMaxPoolSize(Math.max(8, settings.concurrency()))
                .setTryUseCompression(false)
                // no traceparent to merchants: our trace ids are not theirs to join or to see; the event id links both sides
                .setTracingPolicy(TracingPolicy.IGNORE));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    public Uni<SendResult> send(String url, Map<String, String> headers, byte[] body) {
        return send(defaultPolicy, url, headers, body);
    }

    /** With an explicit policy (tests of the refusal use one that refuses private targets). */
    public Uni<SendResult> send(OutgoingUrlPolicy policy, String url, Map<String, String> headers, byte[] body) {
        long start = System.nanoTime();
        UrlDecision decision = policy.checkUrl(url);
        if (!decision.allowed()) {
            return Uni.createFrom().item(SendResult.failed("URL_NOT_ALLOWED: " + decision.reason(), 0));
        }
        URI uri = decision.uri();
        String host = stripBrackets(uri.getHost());
        long budget = settings.sendTimeout().toMillis();
        return resolve(host, budget)
                .map(addresses -> policy.checkResolved(host, addresses))
                .chain(address -> address.allowed()
                        ? exchange(uri, host, address, headers, body, start, Duration.ofMillis(Math.max(1, budget - elapsed(start))))
                        : Uni.createFrom().item(SendResult.failed("ADDRESS_NOT_ALLOWED: " + refusal(host, address), elapsed(start))))
                .onFailure().recoverWithItem(e -> SendResult.failed(describe(e), elapsed(start)));
    }

    /** The resolution is part of the send budget: the whole send ends before the lease, however DNS behaves. */
    private Uni<List<InetAddress>> resolve(String host, long budgetMillis) {
        return Uni.createFrom().deferred(() -> resolver.resolve(host))
                .ifNoItem().after(Duration.ofMillis(budgetMillis))
                .failWith(() -> new IllegalStateException("resolving " + host + " took longer than " + budgetMillis + " ms"));
    }

    /** Never the internal address a name resolved to: that would tell a merchant about the network inside. */
    private static String refusal(String host, AddressDecision address) {
        String reason = address.reason() == null ? "" : address.reason();
        return reason.contains(" resolves to ") ? "host " + host + " resolves to a private address; delivery refused" : reason;
    }

    private Uni<SendResult> exchange(URI uri, String host, AddressDecision address, Map<String, String> headers,
                                     byte[] body, long start, Duration budget) {
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : (https ? 443 : 80);
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(port, address.address().getHostAddress()))
                .setHost(host)
                .setPort(port)
                .setSsl(https)
                .setURI(path)
                .setFollowRedirects(false)
                .setConnectTimeout(budget.toMillis())
                .setIdleTimeout(budget.toMillis());
        headers.forEach(options::putHeader);
        options.putHeader("Content-Type", "application/json");
        options.putHeader("Content-Length", String.valueOf(body.length));
        AtomicBoolean done = new AtomicBoolean();
        Uni<SendResult> exchange = Uni.createFrom().emitter(emitter -> client.request(options)
                .onFailure(e -> emitter.fail(e))
                .onSuccess(request -> {
                    emitter.onTermination(() -> {
                        if (!done.get()) {
                            request.reset();
                        }
                    });
                    request.response()
                            .onFailure(emitter::fail)
                            .onSuccess(response -> {
                                Buffer excerpt = Buffer.buffer();
                                response.handler(chunk -> {
                                    int room = EXCERPT_BYTES - excerpt.length();
                                    if (room > 0) {
                                        excerpt.appendBuffer(chunk.length() <= room ? chunk : chunk.slice(0, room));
                                    }
                                    if (excerpt.length() >= EXCERPT_BYTES && done.compareAndSet(false, true)) {
                                        emitter.complete(SendResult.answered(response.statusCode(), elapsed(start), text(excerpt)));
                                        request.reset();
                                    }
                                });
                                response.exceptionHandler(e -> {
                                    if (done.compareAndSet(false, true)) {
                                        emitter.complete(SendResult.answered(response.statusCode(), elapsed(start), text(excerpt)));
                                    }
                                });
                                response.endHandler(v -> {
                                    if (done.compareAndSet(false, true)) {
                                        emitter.complete(SendResult.answered(response.statusCode(), elapsed(start), text(excerpt)));
                                    }
                                });
                            });
                    request.end(Buffer.buffer(body)).onFailure(e -> {
                        if (!done.get()) {
                            emitter.fail(e);
                        }
                    });
                }));
        // the connection's own idle timeout and the budget end together; whichever fires first, it is one timeout
        return exchange.ifNoItem().after(budget)
                .recoverWithItem(() -> SendResult.failed("timeout after " + settings.sendTimeout().toMillis() + " ms", elapsed(start)))
                .onFailure(WebhookTransport::isTimeout)
                .recoverWithItem(() -> SendResult.failed("timeout after " + settings.sendTimeout().toMillis() + " ms", elapsed(start)));
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    private static String text(Buffer excerpt) {
        return excerpt.length() == 0 ? "" : StorableText.decode(excerpt.getBytes());
    }

    private static String stripBrackets(String host) {
        return host != null && host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static long elapsed(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
