package ht.platform.support.web;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import ht.platform.support.limits.InFlight;
import ht.platform.support.limits.TokenBuckets;
import io.smallrye.mutiny.Uni;
import ht.platform.support.crypto.SecretBox;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import java.time.Clock;
import java.util.function.Function;

/**
 * The one rule for a customer's return from a payment rail (MonCash's return URL names a transaction anyone can type,
 * and proves nothing):
 * <ul>
 * <li>a payment's page is shown only to the browser that left for the rail from it, known by the cookie set on the
 * way out ({@code ours}); every other return gets the neutral "we are checking your payment" page;</li>
 * <li>that cookie is sealed by this service ({@link #cookie}, {@link #opened}): a made-up one, however well-formed,
 * names nothing, and a return without a cookie this service sealed makes no call to the rail: the background
 * reconciler settles the payment;</li>
 * <li>returns naming the same transaction at the same time share one trace (one call to the rail);</li>
 * <li>each client address has a small budget of returns (per replica): past it, 429 with {@code Retry-After}.</li>
 * </ul>
 * The service gives the trace: the cookie value of the payment a transaction (null: none named) belongs to, settling
 * it on the way, or null when the rail does not know the transaction yet.
 */
@ApplicationScoped
@Startup // its metrics exist from the start, at 0
public class ReturnGate {

    private static final byte[] AAD = "rail-return-cookie".getBytes(StandardCharsets.US_ASCII);

    /** The page to show ({@code ours}), or null for the neutral page; {@code retryAfter} > 0 when over budget. */
    public record Outcome(String page, long retryAfter) {
        public boolean limited() {
            return retryAfter > 0;
        }
    }

    private final TokenBuckets budgets;
    private final double perSecond;
    private final int burst;
    private final InFlight<String, String> traces = new InFlight<>();
    private final SecretBox box;

    @Inject
    public ReturnGate(Clock clock, ReturnGateSettings settings, SecretBox box, MeterRegistry registry) {
        this.box = box;
        this.budgets = new TokenBuckets(clock, 50_000, TokenBuckets.refusals(registry, "page_returns"));
        this.perSecond = settings.perMinute() / 60.0;
        this.burst = settings.burst();
    }

    /** The cookie value a browser carries to the rail from the page {@code page} (a page token or session id). */
    public String cookie(String page) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(box.seal(page.getBytes(StandardCharsets.UTF_8), AAD));
    }

    /** The page a cookie names, or null when this service did not seal it. */
    public String opened(String cookie) {
        if (cookie == null || cookie.length() > 300) {
            return null;
        }
        try {
            return new String(box.open(Base64.getUrlDecoder().decode(cookie), AAD), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return null;
        }
    }

    /**
     * {@code transactionId}: well-formed or null; {@code ours}: the browser's cookie, well-formed or null;
     * {@code client}: the address as the edge sees it.
     */
    public Uni<Outcome> pass(String transactionId, String ours, String client, Function<String, Uni<String>> trace) {
        long wait = budgets.take(client, perSecond, burst);
        if (wait > 0) {
            return Uni.createFrom().item(new Outcome(null, wait));
        }
        if (ours == null) {
            return Uni.createFrom().item(new Outcome(null, 0));
        }
        // the browser's own return: traced (a return without a transaction id is traced by the cookie alone)
        Uni<String> traced = traces.join(transactionId != null ? transactionId : "browser:" + ours, () -> trace.apply(transactionId));
        return traced.map(owner -> new Outcome(owner == null || owner.equals(ours) ? ours : null, 0));
    }
}
