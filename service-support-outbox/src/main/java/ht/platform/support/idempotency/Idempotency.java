package ht.platform.support.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Credentials;
import ht.platform.support.errors.ApiException;
import ht.platform.support.health.SchemaPending;
import ht.platform.support.http.RouteTemplates;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * Idempotent creation (DESIGN rule 8). The key row is inserted first in the same transaction as the work:
 * a concurrent duplicate blocks on the primary key until the first commits (then replays its answer) or
 * rolls back (then does the work itself). A failed request leaves no row, so a corrected retry proceeds.
 */
@ApplicationScoped
public class Idempotency {

    @Inject
    IdempotencySettings settings;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper mapper;

    /**
     * What identifies a request: the method and route of its resource method ({@link RouteTemplates#current}: call it on
     * the request's thread) and its body in canonical JSON.
     */
    public String fingerprint(Object body) {
        return RouteTemplates.current() + " " + write(body);
    }

    /** A fresh answer, serialized once here so that a replay returns it byte for byte. */
    public StoredResponse response(int status, Object body) {
        return StoredResponse.fresh(status, write(body));
    }

    /**
     * A body as the answers are written, for a caller that sends the same JSON elsewhere too (an event's object, as a
     * {@code RawValue}) and answers with {@link StoredResponse#fresh}, so it is serialized once.
     */
    public String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    /** Validates the header value; null when absent and not required. */
    public String validateKey(String key, boolean required) {
        if (key == null || key.isEmpty()) {
            if (required) {
                throw new ApiException(400, "IDEMPOTENCY_KEY_REQUIRED", "This request requires an Idempotency-Key header", "Idempotency-Key");
            }
            return null;
        }
        if (key.length() > settings.maxKeyLength() || key.isBlank() || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw new ApiException(400, "INVALID_IDEMPOTENCY_KEY",
                    "Idempotency-Key must be 1 to " + settings.maxKeyLength() + " visible ASCII characters", "Idempotency-Key");
        }
        return key;
    }

    /**
     * Runs {@code work} in one transaction guarded by the key. {@code fingerprint} identifies the request
     * (method, path and canonical body); the same key with another fingerprint is IDEMPOTENCY_CONFLICT.
     */
    public Uni<StoredResponse> run(ApiPrincipal caller, String key, String fingerprint, Supplier<Uni<StoredResponse>> work) {
        if (key == null) {
            return Panache.withTransaction(work);
        }
        String hash = sha256(fingerprint);
        String table = settings.schema() + ".idempotency_keys";
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session
                .createNativeQuery("INSERT INTO " + table + " (owner_id, mode, idempotency_key, request_hash, created_at)"
                        + " VALUES (:owner, :mode, :key, :hash, :now) ON CONFLICT DO NOTHING")
                .setParameter("owner", caller.ownerId()).setParameter("mode", caller.mode())
                .setParameter("key", key).setParameter("hash", hash)
                .setParameter("now", OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC))
                .executeUpdate()
                .chain(inserted -> inserted == 1
                        ? work.get().call(response -> store(session, table, caller, key, response))
                        : replay(session, table, caller, key, hash))));
    }

    /** The stored answer keeps no credential in clear ({@link Credentials}): a replay shows a secret no second time. */
    private Uni<Integer> store(Mutiny.Session session, String table, ApiPrincipal caller, String key, StoredResponse response) {
        return session.createNativeQuery("UPDATE " + table + " SET response_status = :status, response_body = :body"
                        + " WHERE owner_id = :owner AND mode = :mode AND idempotency_key = :key")
                .setParameter("status", response.status()).setParameter("body", Credentials.mask(response.body()))
                .setParameter("owner", caller.ownerId()).setParameter("mode", caller.mode()).setParameter("key", key)
                .executeUpdate();
    }

    private Uni<StoredResponse> replay(Mutiny.Session session, String table, ApiPrincipal caller, String key, String hash) {
        return session.createNativeQuery("SELECT request_hash, response_status, response_body FROM " + table
                        + " WHERE owner_id = :owner AND mode = :mode AND idempotency_key = :key", Object[].class)
                .setParameter("owner", caller.ownerId()).setParameter("mode", caller.mode()).setParameter("key", key)
                .getSingleResultOrNull()
                .map(row -> answered(row, hash));
    }

    /** The stored answer of a key's row (request hash, status, body), or why there is none to give. */
    private static StoredResponse answered(Object[] row, String hash) {
        if (row == null || row[1] == null) {
            throw new ApiException(409, "IDEMPOTENCY_KEY_IN_USE",
                    "A request with this Idempotency-Key is still being processed; retry shortly",
                    "Idempotency-Key", java.util.Map.of("Retry-After", "1"));
        }
        if (!hash.equals(row[0])) {
            throw new ApiException(409, "IDEMPOTENCY_CONFLICT",
                    "This Idempotency-Key was already used with a different request", "Idempotency-Key");
        }
        return new StoredResponse(((Number) row[1]).intValue(), (String) row[2], true);
    }

    /**
     * The key's part of a creation written in one statement ({@link OneStatementCreate}): the CTE entry {@code k},
     * which records the key with its answer at once for each row of {@code rows} (one, or none when the creation is
     * refused) and has a row only when the key was new; its parameters are {@code $from}… ({@link #keyValues}). A
     * duplicate still waits on the key's primary key until the first commits or rolls back, and a replay ({@link
     * #replay}) finds the answer already stored.
     */
    String keyEntry(int from, String rows) {
        return "k AS (INSERT INTO " + settings.schema() + ".idempotency_keys (owner_id, mode, idempotency_key,"
                + " request_hash, created_at, response_status, response_body) SELECT $" + from + "::text, $" + (from + 1)
                + "::text, $" + (from + 2) + "::text, $" + (from + 3) + "::text, $" + (from + 4) + "::timestamptz, $"
                + (from + 5) + "::integer, $" + (from + 6) + "::text FROM " + rows + " ON CONFLICT DO NOTHING RETURNING 1)";
    }

    /** How many parameters {@link #keyEntry} takes. */
    static final int KEY_VALUES = 7;

    /** The parameters of {@link #keyEntry}: the stored answer keeps no credential in clear, as {@link #run}'s. */
    List<Object> keyValues(ApiPrincipal caller, String key, String fingerprint, StoredResponse response) {
        return List.of(caller.ownerId(), caller.mode(), key, sha256(fingerprint),
                OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC), response.status(),
                Credentials.mask(response.body()));
    }

    /**
     * The answer first given to this key, when a statement with {@link #keyEntry} wrote nothing; when the key has no
     * row, {@code absent} (the creation was refused) or 409 IDEMPOTENCY_KEY_IN_USE.
     */
    Uni<StoredResponse> replay(Pool pool, ApiPrincipal caller, String key, String fingerprint,
                               Supplier<? extends RuntimeException> absent) {
        return pool.preparedQuery("SELECT request_hash, response_status, response_body FROM " + settings.schema()
                        + ".idempotency_keys WHERE owner_id = $1 AND mode = $2 AND idempotency_key = $3")
                .execute(Tuple.of(caller.ownerId(), caller.mode(), key))
                .map(rows -> {
                    Row row = rows.iterator().hasNext() ? rows.iterator().next() : null;
                    if (row == null && absent != null) {
                        throw absent.get();
                    }
                    return answered(row == null ? null : new Object[] {row.getString(0), row.getInteger(1), row.getString(2)},
                            sha256(fingerprint));
                });
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = SchemaPending.class)
    Uni<Void> purgeExpired() {
        OffsetDateTime cutoff = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).minus(settings.retention());
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s
                .createNativeQuery("DELETE FROM " + settings.schema() + ".idempotency_keys WHERE created_at < :cutoff")
                .setParameter("cutoff", cutoff).executeUpdate())).replaceWithVoid();
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
