package ht.platform.support.dashboard;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Sign-in links: only the hash of the token is kept; a link is consumed once, before it expires. */
@ApplicationScoped
public class SignInLinkStore {

    /** What a consumed link opens. */
    public record Redeemed(String ownerId, String mode, boolean liveAllowed, java.util.Set<String> permissions, String createdBy) { }

    @Inject
    Pool pool;

    @Inject
    DashboardSettings settings;

    public Uni<Void> insert(String tokenHash, String ownerId, String mode, boolean liveAllowed, String createdBy,
                            java.util.Set<String> permissions, Instant now, Instant expiresAt) {
        return pool.preparedQuery("INSERT INTO " + settings.schema() + ".dashboard_links"
                        + " (token_hash, owner_id, mode, live_allowed, created_by, created_at, expires_at, permissions)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
                .execute(Tuple.from(new Object[] {tokenHash, ownerId, mode, liveAllowed, createdBy, utc(now), utc(expiresAt),
                        permissions.stream().sorted().toArray(String[]::new)}))
                .replaceWithVoid();
    }

    /** Atomically marks the link used; null when it is unknown, already used or expired. */
    public Uni<Redeemed> consume(String tokenHash, Instant now) {
        return pool.preparedQuery("UPDATE " + settings.schema() + ".dashboard_links SET used_at = $2"
                        + " WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2"
                        + " RETURNING owner_id, mode, live_allowed, permissions, created_by")
                .execute(Tuple.of(tokenHash, utc(now)))
                .map(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return null;
                    }
                    Row row = it.next();
                    return new Redeemed(row.getString("owner_id"), row.getString("mode"), row.getBoolean("live_allowed"),
                            java.util.Set.of(row.getArrayOfStrings("permissions")), row.getString("created_by"));
                });
    }

    public Uni<Integer> purge(Instant before) {
        return pool.preparedQuery("DELETE FROM " + settings.schema() + ".dashboard_links WHERE expires_at < $1")
                .execute(Tuple.of(utc(before))).map(rows -> rows.rowCount());
    }

    static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
