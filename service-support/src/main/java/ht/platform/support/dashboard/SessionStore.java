package ht.platform.support.dashboard;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;

import static ht.platform.support.dashboard.SignInLinkStore.utc;

/** Dashboard sessions: only the hash of the session id is kept (a stolen table opens nothing). */
@ApplicationScoped
public class SessionStore {

    private static final String COLUMNS = "id_hash, owner_id, mode, live_allowed, csrf_token, created_at, expires_at, permissions, created_by";

    @Inject
    Pool pool;

    @Inject
    DashboardSettings settings;

    public Uni<Void> insert(DashboardSession s, Instant now) {
        return pool.preparedQuery("INSERT INTO " + table() + " (" + COLUMNS + ", last_seen_at)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
                .execute(Tuple.from(new Object[] {s.idHash(), s.ownerId(), s.mode(), s.liveAllowed(), s.csrfToken(),
                        utc(s.createdAt()), utc(s.expiresAt()), s.permissions().stream().sorted().toArray(String[]::new),
                        s.createdBy(), utc(now)}))
                .replaceWithVoid();
    }

    /** The live session (not ended, within both timeouts), its idle clock restarted; null otherwise. */
    public Uni<DashboardSession> touch(String idHash, Instant now) {
        return pool.preparedQuery("UPDATE " + table() + " SET last_seen_at = $2"
                        + " WHERE id_hash = $1 AND ended_at IS NULL AND expires_at > $2 AND last_seen_at > $3"
                        + " RETURNING " + COLUMNS)
                .execute(Tuple.of(idHash, utc(now), utc(now.minus(settings.idleTimeout()))))
                .map(rows -> rows.iterator().hasNext() ? session(rows.iterator().next()) : null);
    }

    public Uni<Void> switchMode(String idHash, String mode) {
        return pool.preparedQuery("UPDATE " + table() + " SET mode = $2 WHERE id_hash = $1 AND ended_at IS NULL")
                .execute(Tuple.of(idHash, mode)).replaceWithVoid();
    }

    public Uni<Void> end(String idHash, Instant now) {
        return pool.preparedQuery("UPDATE " + table() + " SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL")
                .execute(Tuple.of(idHash, utc(now))).replaceWithVoid();
    }

    /** Sessions past their absolute end are of no use to anyone. */
    public Uni<Integer> purge(Instant before) {
        return pool.preparedQuery("DELETE FROM " + table() + " WHERE expires_at < $1")
                .execute(Tuple.of(utc(before))).map(rows -> rows.rowCount());
    }

    private String table() {
        return settings.schema() + ".dashboard_sessions";
    }

    private static DashboardSession session(Row row) {
        return new DashboardSession(row.getString("id_hash"), row.getString("owner_id"), row.getString("mode"),
                row.getBoolean("live_allowed"), row.getString("csrf_token"),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("expires_at").toInstant(),
                java.util.Set.of(row.getArrayOfStrings("permissions")), row.getString("created_by"));
    }
}
