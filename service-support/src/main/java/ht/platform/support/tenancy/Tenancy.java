package ht.platform.support.tenancy;

import ht.platform.support.auth.ApiKeyLookup;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.KeyRequests;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import ht.platform.support.time.DatabaseTime;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tenants and their secret keys, the same in every service in the service's own words ({@link TenancyTerms}):
 * creating an owner, issuing a key (shown once, kept as its hash), revoking one, and finding the caller of a key
 * for authentication. The store of the owner and key rows, on the plain reactive client.
 */
@ApplicationScoped
public class Tenancy implements ApiKeyLookup {

    public record Owner(String id, String name, Instant createdAt) { }

    /** An owner and whether it may still be used (a revoked owner may not). */
    public record Standing(String id, String name, boolean active) { }

    /** A new key: the secret is only in {@code key}, shown once. */
    public record IssuedKey(String id, String ownerId, String key, String mode, List<String> grants, Instant createdAt) { }

    private final AtomicLong keyLookups = new AtomicLong();

    @Inject
    TenancyTerms terms;

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    public TenancyTerms terms() {
        return terms;
    }

    public Uni<Owner> createOwner(String name) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw ApiException.invalid("name", "name is required (1 to 200 characters)");
        }
        Owner owner = new Owner(Ids.hex(terms.ownerPrefix(), 12), name.strip(), now());
        return pool.preparedQuery("INSERT INTO " + terms.owners() + " (id, name, created_at) VALUES ($1, $2, $3)")
                .execute(Tuple.of(owner.id(), owner.name(), at(owner.createdAt())))
                .replaceWith(owner);
    }

    public Uni<IssuedKey> issueKey(String ownerId, String mode, List<String> requested) {
        KeyRequests.mode(mode);
        Set<String> granted = KeyRequests.grants(requested, terms.grants(), terms.grantNoun());
        String secret = KeyRequests.newSecret(terms.keyPrefix(), mode);
        IssuedKey key = new IssuedKey(Ids.hex("key_", 12), ownerId, secret, mode, List.copyOf(granted), now());
        return pool.preparedQuery("WITH o AS (SELECT o.id, (" + terms.ownerActive() + ") AS active FROM " + terms.owners()
                        + " o WHERE o.id = $2), k AS (INSERT INTO " + terms.keys() + " (id, " + terms.ownerColumn()
                        + ", key_hash, key_hint, mode, " + terms.grantNoun() + ", created_at)"
                        + " SELECT $1, o.id, $3, $4, $5, $6, $7 FROM o WHERE o.active RETURNING id)"
                        + " SELECT o.active, (SELECT count(*) FROM k) AS issued FROM o")
                .execute(Tuple.tuple(List.of(key.id(), ownerId, ApiKeys.hash(secret), ApiKeys.hint(secret), mode,
                        granted.toArray(String[]::new), at(key.createdAt()))))
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        throw ApiException.notFound(terms.ownerNoun() + " " + ownerId);
                    }
                    if (!it.next().getBoolean("active")) {
                        throw new ApiException(409, terms.ownerNoun().toUpperCase(Locale.ROOT) + "_REVOKED",
                                "This " + terms.ownerNoun().toLowerCase(Locale.ROOT) + " has been revoked");
                    }
                    return key;
                });
    }

    /** The owner's standing; null when there is no such owner. */
    public Uni<Standing> standing(String ownerId) {
        return pool.preparedQuery("SELECT o.id, o.name, (" + terms.ownerActive() + ") AS active FROM " + terms.owners()
                        + " o WHERE o.id = $1")
                .execute(Tuple.of(ownerId))
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return null;
                    }
                    Row row = it.next();
                    return new Standing(row.getString("id"), row.getString("name"), row.getBoolean("active"));
                });
    }

    public Uni<Void> revokeKey(String keyId) {
        return pool.preparedQuery("UPDATE " + terms.keys() + " SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")
                .execute(Tuple.of(keyId, at(now())))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw ApiException.notFound("Key " + keyId);
                    }
                    return null;
                });
    }

    /** How many key lookups this replica has sent to the database (the authentication cache shares them). */
    public long keyLookups() {
        return keyLookups.get();
    }

    @Override
    public Uni<ApiPrincipal> findByHash(String keyHash) {
        return pool.preparedQuery("SELECT k.id, k." + terms.ownerColumn() + " AS owner, k.mode, k." + terms.grantNoun()
                        + " AS grants, (" + terms.ownerActive() + ") AS active FROM " + terms.keys() + " k JOIN " + terms.owners()
                        + " o ON o.id = k." + terms.ownerColumn() + " WHERE k.key_hash = $1 AND k.revoked_at IS NULL")
                .execute(Tuple.of(keyHash))
                .onSubscription().invoke(keyLookups::incrementAndGet)
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return null;
                    }
                    Row row = it.next();
                    return new ApiPrincipal(row.getString("id"), row.getString("owner"), row.getString("mode"),
                            Set.of(row.getArrayOfStrings("grants")), row.getBoolean("active"));
                });
    }

    /** {@code {id, name, created_at}} */
    public Map<String, Object> view(Owner owner) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", owner.id());
        view.put("name", owner.name());
        view.put("created_at", terms.time().apply(owner.createdAt()));
        return view;
    }

    /** {@code {id, key, mode, <grants>, created_at}}: the only time the key is shown. */
    public Map<String, Object> view(IssuedKey key) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", key.id());
        view.put("key", key.key());
        view.put("mode", key.mode());
        view.put(terms.grantNoun(), key.grants());
        view.put("created_at", terms.time().apply(key.createdAt()));
        return view;
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
