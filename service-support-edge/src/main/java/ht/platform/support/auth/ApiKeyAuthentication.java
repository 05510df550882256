package ht.platform.support.auth;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import ht.platform.support.errors.ApiException;
import ht.platform.support.errors.ErrorResponses;
import ht.platform.support.http.ClientAddress;
import ht.platform.support.limits.AsyncPermits;
import ht.platform.support.limits.TokenBuckets;
import ht.platform.support.trace.RequestIds;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Bearer API key authentication (DESIGN rule 5), bound to the {@link ApiKeyRequired} resources after routing, so
 * whatever spelling of a path the router sends to one of them is authenticated. Keys nobody holds cost the shared
 * database little: a key found unknown is refused from memory for {@link AuthSettings#unknownKeyTtl}; each client
 * address has a budget of failures ({@link AuthSettings#failures}; a key not yet resolved is charged before its lookup
 * and given back when found, so a burst of made-up keys is refused with 429 before it reaches the database); and at
 * most {@link AuthSettings#lookups} lookups run at once, well below the pool's size, the rest waiting in a bounded
 * line (503 past it: the server's limit, not the caller's). {@link KeyRefusals} gives these three refusals from the
 * router, before the REST layer, through {@link #refusalBeforeRouting}; a request it lets by has paid already.
 */
@ApplicationScoped
public class ApiKeyAuthentication {

    /**
     * Resolved keys by hash, for {@link AuthSettings#cacheTtl} on the injected clock. Concurrent requests with the same
     * key share one lookup (its future is the entry); a lookup that finds no key or fails is not kept.
     */
    private AsyncCache<String, ApiPrincipal> cache;
    /** Hashes the database answered "no such key" for, for {@link AuthSettings#unknownKeyTtl}. */
    private Cache<String, Boolean> unknown;
    private TokenBuckets failures;
    private AsyncPermits lookups;

    @Inject
    AuthSettings settings;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size", defaultValue = "20")
    int poolSize;

    @Inject
    Instance<ApiKeyLookup> lookup;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Inject
    ErrorResponses errors;

    @PostConstruct
    void createCache() {
        Ticker ticker = () -> {
            Instant now = clock.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        };
        cache = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(settings.cacheTtl()).ticker(ticker).buildAsync();
        unknown = Caffeine.newBuilder().maximumSize(50_000).expireAfterWrite(settings.unknownKeyTtl()).ticker(ticker).build();
        failures = new TokenBuckets(clock, 50_000);
        lookups = new AsyncPermits(Math.max(1, Math.min(settings.lookups().concurrent(), poolSize / 4)));
    }

    /**
     * Rehearses the refusal of a made-up key on throwaway state, beside the rest of the start: a flood that meets a
     * service in its first seconds is then refused by code the JIT has already compiled (the error body's serializer
     * already built), not interpreted on the event loops while other tenants wait.
     */
    void rehearse(@Observes StartupEvent started) {
        if (settings.rehearsals() <= 0) {
            return;
        }
        Thread rehearsal = new Thread(this::rehearseRefusals, "key-refusal-rehearsal");
        rehearsal.setDaemon(true);
        rehearsal.setPriority(Thread.MIN_PRIORITY);
        rehearsal.start();
    }

    void rehearseRefusals() {
        TokenBuckets budget = new TokenBuckets(clock, 1);
        String prefix = settings.keyPrefixes().get(0);
        int rehearsals = settings.rehearsals();
        for (int i = 0; i < rehearsals; i++) {
            String hash = ApiKeys.hash(prefix + i);
            cache.getIfPresent(hash);
            unknown.getIfPresent(hash);
            long retryAfter = budget.take("rehearsal", 1, 20);
            ApiException refused = retryAfter > 0 ? tooManyFailures(retryAfter) : unauthenticated();
            errors.body(refused.code(), refused.getMessage(), refused.param(), RequestIds.newId());
        }
    }

    /** Request data set by {@link #refusalBeforeRouting} on a request it let by: the client it charged, or "". */
    private static final String CHARGED = "platform.auth.charged";

    /**
     * What {@link #authenticate} would refuse a request with before any lookup: a key found unknown (401), a client
     * past its failures (429), or no room for one more lookup (503); null to let it by, after charging its client as
     * {@link #authenticate} would (which then does not charge it again).
     */
    public ApiException refusalBeforeRouting(RoutingContext ctx) {
        String key = presented(ctx.request().getHeader("Authorization"));
        if (key == null) {
            return null; // answered by the REST layer as before: nothing here is cheaper
        }
        String hash = ApiKeys.hash(key);
        if (cache.getIfPresent(hash) != null) {
            ctx.put(CHARGED, "");
            return null;
        }
        String client = ClientAddress.of(ctx.request());
        AuthSettings.Failures budget = settings.failures();
        long retryAfter = failures.take(client, budget.perMinute() / 60.0, budget.burst());
        if (retryAfter > 0) {
            return tooManyFailures(retryAfter);
        }
        if (unknown.getIfPresent(hash) != null) {
            return unauthenticated();
        }
        if (lookups.full(settings.lookups().queued())) {
            failures.giveBack(client);
            return busy();
        }
        ctx.put(CHARGED, client);
        return null;
    }

    @ApiKeyRequired
    @ServerRequestFilter(priority = 1000, nonBlocking = true)
    public Uni<Void> authenticate(HttpServerRequest request, RoutingContext ctx) {
        String key = presented(request.getHeader("Authorization"));
        if (key == null) {
            return Uni.createFrom().failure(unauthenticated());
        }
        String hash = ApiKeys.hash(key);
        String client = null;
        String prepaid = ctx == null ? null : ctx.get(CHARGED);
        if (prepaid != null) {
            client = prepaid.isEmpty() ? null : prepaid;
            if (cache.getIfPresent(hash) == null && unknown.getIfPresent(hash) != null) {
                return Uni.createFrom().failure(unauthenticated());
            }
        } else if (cache.getIfPresent(hash) == null) {
            // not resolved nor being resolved: this request pays for it from its client's budget of failures
            client = ClientAddress.of(request);
            AuthSettings.Failures budget = settings.failures();
            long retryAfter = failures.take(client, budget.perMinute() / 60.0, budget.burst());
            if (retryAfter > 0) {
                return Uni.createFrom().failure(tooManyFailures(retryAfter));
            }
            if (unknown.getIfPresent(hash) != null) {
                return Uni.createFrom().failure(unauthenticated());
            }
        }
        String charged = client;
        CompletableFuture<ApiPrincipal> found = cache.get(hash, (h, executor) -> lookUp(h).subscribeAsCompletionStage());
        Uni<ApiPrincipal> principal = Uni.createFrom().completionStage(found);
        Context context = Vertx.currentContext();
        if (!found.isDone() && context != null) {
            // the shared lookup completes on the thread of the request that started it: go on in this request's context
            principal = principal.emitOn(task -> context.runOnContext(ignored -> task.run()));
        }
        return principal.onFailure().invoke(() -> giveBack(charged)).map(p -> {
            if (p == null) {
                throw unauthenticated();
            }
            giveBack(charged);
            if (!p.ownerActive()) {
                throw new ApiException(403, settings.forbiddenCode(), "This application has been revoked");
            }
            caller.set(p, settings.forbiddenCode());
            nameInLogs(p);
            return null;
        });
    }

    /**
     * The active principal of an {@code Authorization} header whose key this replica has already resolved, without a
     * lookup; null for anything else (unknown, revoked, not yet looked up, still being looked up).
     */
    public ApiPrincipal resolved(String authorization) {
        String key = presented(authorization);
        if (key == null) {
            return null;
        }
        CompletableFuture<ApiPrincipal> found = cache.getIfPresent(ApiKeys.hash(key));
        ApiPrincipal p = found != null && found.isDone() && !found.isCompletedExceptionally() ? found.getNow(null) : null;
        return p != null && p.ownerActive() ? p : null;
    }

    /** Forget cached keys at once (called after a key is revoked on this replica). */
    public void forgetAll() {
        cache.synchronous().invalidateAll();
        unknown.invalidateAll();
    }

    /** Forget the keys found unknown (called after a key is issued on this replica: it may be one of them). */
    public void forgetUnknown() {
        unknown.invalidateAll();
    }

    /** One lookup in the database under the cap; a key it does not find is remembered as unknown. */
    private Uni<ApiPrincipal> lookUp(String hash) {
        return lookups.run(() -> lookup.get().findByHash(hash), settings.lookups().queued(), ApiKeyAuthentication::busy)
                .invoke(p -> {
                    if (p == null) {
                        unknown.put(hash, Boolean.TRUE);
                    }
                });
    }

    private void giveBack(String client) {
        if (client != null) {
            failures.giveBack(client);
        }
    }

    /** Every later line of this request (and its access-log line) names the tenant and the mode. */
    public static void nameInLogs(ApiPrincipal p) {
        MDC.put("tenant", p.ownerId());
        MDC.put("mode", p.mode());
    }

    /** The bearer key of an {@code Authorization} header if it has one of the keys' prefixes; null otherwise. */
    private String presented(String header) {
        String key = bearer(header);
        return key == null || settings.keyPrefixes().stream().noneMatch(key::startsWith) ? null : key;
    }

    static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String key = header.substring(7).trim();
        return key.isEmpty() ? null : key;
    }

    private static ApiException tooManyFailures(long retryAfter) {
        return new ApiException(429, "RATE_LIMITED", "Too many requests with an invalid API key from your address;"
                + " retry after " + retryAfter + " s with a valid key", null, Map.of("Retry-After", Long.toString(retryAfter)));
    }

    private static ApiException busy() {
        return new ApiException(503, "SERVICE_UNAVAILABLE", "The service is briefly unable to check API keys; nothing was"
                + " changed, retry the request", null, Map.of("Retry-After", "1"));
    }

    private static ApiException unauthenticated() {
        return new ApiException(401, "UNAUTHENTICATED", "Missing or invalid API key: send 'Authorization: Bearer <key>'");
    }
}
