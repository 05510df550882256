package ht.platform.checkout.service;

import ht.platform.checkout.model.ApiKey;
import ht.platform.checkout.model.Application;
import ht.platform.support.auth.ApiKeyLookup;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

/** Client applications and their secret keys (operator API), and key lookup for authentication. */
@ApplicationScoped
public class ApplicationService implements ApiKeyLookup {

    public static final List<String> SCOPES = List.of("payment_intents:create", "payment_intents:read",
            "payment_intents:write", "refunds:create", "refunds:read", "customers:read", "payment_links:create",
            "payment_links:read", "webhooks:manage");

    /** A new key: the secret is only in {@code key}, shown once. */
    public record IssuedKey(ApiKey stored, String key) { }

    @Inject
    Clock clock;

    public Uni<Application> createApplication(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw ApiException.invalid("name", "name is required (1 to 200 characters)");
        }
        Application app = new Application();
        app.id = Ids.hex("app_", 12);
        app.name = name.strip();
        app.createdAt = now();
        return Panache.withTransaction(app::persist).replaceWith(app);
    }

    public Uni<IssuedKey> issueKey(String applicationId, String mode, List<String> scopes) {
        KeyRequests.mode(mode);
        Set<String> granted = KeyRequests.grants(scopes, SCOPES, "scopes");
        return Panache.withTransaction(() -> Application.<Application>findById(applicationId).chain(app -> {
            if (app == null) {
                throw ApiException.notFound("Application " + applicationId);
            }
            String secret = KeyRequests.newSecret("co_", mode);
            ApiKey key = new ApiKey();
            key.id = Ids.hex("key_", 12);
            key.applicationId = applicationId;
            key.keyHash = ApiKeys.hash(secret);
            key.keyHint = ApiKeys.hint(secret);
            key.mode = mode;
            key.scopes = granted.toArray(String[]::new);
            key.createdAt = now();
            return key.<ApiKey>persist().map(k -> new IssuedKey(k, secret));
        }));
    }

    public Uni<Void> revokeKey(String keyId) {
        return Panache.withTransaction(() -> ApiKey.<ApiKey>findById(keyId).chain(key -> {
            if (key == null) {
                throw ApiException.notFound("Key " + keyId);
            }
            if (key.revokedAt == null) {
                key.revokedAt = now();
            }
            return Uni.createFrom().voidItem();
        }));
    }

    @Override
    public Uni<ApiPrincipal> findByHash(String keyHash) {
        return Panache.withSession(() -> ApiKey.findActiveByHash(keyHash)).map(key -> key == null ? null
                : new ApiPrincipal(key.id, key.applicationId, key.mode, Set.of(key.scopes), true));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
