package ht.platform.wallet.service;

import ht.platform.support.auth.ApiKeyLookup;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.wallet.model.ApiKey;
import ht.platform.wallet.model.Project;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

/** Projects and their secret keys (operator API), and key lookup for authentication. */
@ApplicationScoped
public class ProjectService implements ApiKeyLookup {

    public static final List<String> PERMISSIONS = List.of("payments:read", "payments:write", "withdrawals:read",
            "withdrawals:write", "balance:read", "webhooks:read", "webhooks:write");

    /** A new key: the secret is only in {@code key}, shown once. */
    public record IssuedKey(ApiKey stored, String key) { }

    @Inject
    Clock clock;

    public Uni<Project> createProject(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw ApiException.invalid("name", "name is required (1 to 200 characters)");
        }
        Project project = new Project();
        project.id = Ids.hex("proj_", 12);
        project.name = name.strip();
        project.createdAt = now();
        return Panache.withTransaction(project::persist).replaceWith(project);
    }

    public Uni<IssuedKey> issueKey(String projectId, String mode, List<String> permissions) {
        KeyRequests.mode(mode);
        Set<String> granted = KeyRequests.grants(permissions, PERMISSIONS, "permissions");
        return Panache.withTransaction(() -> Project.<Project>findById(projectId).chain(project -> {
            if (project == null) {
                throw ApiException.notFound("Project " + projectId);
            }
            String secret = KeyRequests.newSecret("gw_", mode);
            ApiKey key = new ApiKey();
            key.id = Ids.hex("key_", 12);
            key.projectId = projectId;
            key.keyHash = ApiKeys.hash(secret);
            key.keyHint = ApiKeys.hint(secret);
            key.mode = mode;
            key.permissions = granted.toArray(String[]::new);
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
                : new ApiPrincipal(key.id, key.projectId, key.mode, Set.of(key.permissions), true));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
