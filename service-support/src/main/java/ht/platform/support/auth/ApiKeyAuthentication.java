package ht.platform.support.auth;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Bearer API key authentication (DESIGN rule 5), bound to the {@link ApiKeyRequired} resources after routing, so
 * whatever spelling of a path the router sends to one of them is authenticated.
 */
@ApplicationScoped
public class ApiKeyAuthentication {

    /**
     * Resolved keys by hash, for {@link AuthSettings#cacheTtl} on the injected clock. Concurrent requests with the same
     * key share one lookup (its future is the entry); a lookup that finds no key or fails is not kept.
     */
    private AsyncCache<String, ApiPrincipal> cache;

    @Inject
    AuthSettings settings;

    @Inject
    Instance<ApiKeyLookup> lookup;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @PostConstruct
    void createCache() {
        cache = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(settings.cacheTtl())
                .ticker(() -> {
                    Instant now = clock.instant();
                    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
                })
                .buildAsync();
    }

    @ApiKeyRequired
    @ServerRequestFilter(priority = 1000, nonBlocking = true)
    public Uni<Void> authenticate(HttpServerRequest request) {
        String key = presented(request.getHeader("Authorization"));
        if (key == null) {
            return Uni.createFrom().failure(unauthenticated());
        }
        String hash = ApiKeys.hash(key);
        CompletableFuture<ApiPrincipal> found = cache.get(hash, (h, executor) -> lookup.get().findByHash(h).subscribeAsCompletionStage());
        Uni<ApiPrincipal> principal = Uni.createFrom().completionStage(found);
        Context context = Vertx.currentContext();
        if (!found.isDone() && context != null) {
            // the shared lookup completes on the thread of the request that started it: go on in this request's context
            principal = principal.emitOn(task -> context.runOnContext(ignored -> task.run()));
        }
        return principal.map(p -> {
            if (p == null) {
                throw unauthenticated();
            }
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

    private static ApiException unauthenticated() {
        return new ApiException(401, "UNAUTHENTICATED", "Missing or invalid API key: send 'Authorization: Bearer <key>'");
    }
}
