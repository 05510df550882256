package ht.platform.support.auth;

import ht.platform.support.cache.BoundedCache;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.time.Clock;
import java.time.Instant;

/**
 * Bearer API key authentication (DESIGN rule 5), bound to the {@link ApiKeyRequired} resources after routing, so
 * whatever spelling of a path the router sends to one of them is authenticated.
 */
@ApplicationScoped
public class ApiKeyAuthentication {

    private record Cached(ApiPrincipal principal, Instant until) { }

    private final BoundedCache<String, Cached> cache = new BoundedCache<>(10_001);

    @Inject
    AuthSettings settings;

    @Inject
    Instance<ApiKeyLookup> lookup;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @ApiKeyRequired
    @ServerRequestFilter(priority = 1000, nonBlocking = true)
    public Uni<Void> authenticate(HttpServerRequest request) {
        String key = bearer(request.getHeader("Authorization"));
        if (key == null || settings.keyPrefixes().stream().noneMatch(key::startsWith)) {
            return Uni.createFrom().failure(unauthenticated());
        }
        String hash = ApiKeys.hash(key);
        Instant now = clock.instant();
        Cached cached = cache.get(hash);
        Uni<ApiPrincipal> principal = cached != null && cached.until().isAfter(now)
                ? Uni.createFrom().item(cached.principal())
                : lookup.get().findByHash(hash).invoke(p -> {
                    if (p != null) {
                        cache.put(hash, new Cached(p, now.plus(settings.cacheTtl())));
                    }
                });
        return principal.map(p -> {
            if (p == null) {
                throw unauthenticated();
            }
            if (!p.ownerActive()) {
                throw new ApiException(403, settings.forbiddenCode(), "This application has been revoked");
            }
            caller.set(p, settings.forbiddenCode());
            // every later line of this request (and its access-log line) names the tenant and the mode
            MDC.put("tenant", p.ownerId());
            MDC.put("mode", p.mode());
            return null;
        });
    }

    /** Forget cached keys at once (called after a key is revoked on this replica). */
    public void forgetAll() {
        cache.clear();
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
