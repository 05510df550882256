package ht.platform.checkout.model;

import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The API log rows, on the plain reactive client only (written in batches, read by the dashboard). */
@ApplicationScoped
public class ApiLogStore {

    @Inject
    Pool pool;

    public Uni<Void> insert(List<ApiLogEntry> batch) {
        List<Tuple> rows = batch.stream().map(e -> Tuple.from(new Object[] {e.requestId(), e.ownerId(), e.mode(), e.keyId(),
                e.method(), e.path(), e.status(), e.latencyMs(), e.requestBody(), e.responseBody(), e.at().atOffset(ZoneOffset.UTC)})).toList();
        return pool.preparedQuery("INSERT INTO checkout.api_logs (request_id, owner_id, mode, key_id, method, path, status,"
                        + " latency_ms, request_body, response_body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
                .executeBatch(rows).replaceWithVoid();
    }

    public Uni<Void> deleteBefore(Instant cutoff) {
        return pool.preparedQuery("DELETE FROM checkout.api_logs WHERE created_at < $1")
                .execute(Tuple.of(cutoff.atOffset(ZoneOffset.UTC))).replaceWithVoid();
    }

    /** An owner's requests in one mode, newest first; every filter is optional ({@code before}: a seq). */
    public Uni<List<ApiLogEntry>> search(String ownerId, String mode, String requestId, Integer status, String pathPrefix,
                                         Long before, int limit) {
        StringBuilder sql = new StringBuilder("SELECT * FROM checkout.api_logs WHERE owner_id = $1 AND mode = $2");
        List<Object> args = new ArrayList<>(List.of(ownerId, mode));
        if (requestId != null) {
            args.add(requestId);
            sql.append(" AND request_id = $").append(args.size());
        }
        if (status != null) {
            args.add(status);
            sql.append(" AND status = $").append(args.size());
        }
        if (pathPrefix != null) {
            args.add(pathPrefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
            sql.append(" AND path LIKE $").append(args.size());
        }
        if (before != null) {
            args.add(before);
            sql.append(" AND seq < $").append(args.size());
        }
        sql.append(" ORDER BY seq DESC LIMIT ").append(limit);
        return pool.preparedQuery(sql.toString()).execute(Tuple.from(args)).map(rows -> {
            List<ApiLogEntry> out = new ArrayList<>();
            rows.forEach(r -> out.add(entry(r)));
            return out;
        });
    }

    /** One of the owner's requests in one mode, or 404. */
    public Uni<ApiLogEntry> get(String ownerId, String mode, long seq) {
        return pool.preparedQuery("SELECT * FROM checkout.api_logs WHERE seq = $1 AND owner_id = $2 AND mode = $3")
                .execute(Tuple.of(seq, ownerId, mode)).map(rows -> {
                    if (!rows.iterator().hasNext()) {
                        throw ApiException.notFound("API log " + seq);
                    }
                    return entry(rows.iterator().next());
                });
    }

    private static ApiLogEntry entry(Row r) {
        return new ApiLogEntry(r.getLong("seq"), r.getString("request_id"), r.getString("owner_id"), r.getString("mode"),
                r.getString("key_id"), r.getString("method"), r.getString("path"), r.getInteger("status"), r.getLong("latency_ms"),
                r.getString("request_body"), r.getString("response_body"), r.getOffsetDateTime("created_at").toInstant());
    }
}
