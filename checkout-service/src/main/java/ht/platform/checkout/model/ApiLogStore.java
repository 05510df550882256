package ht.platform.checkout.model;

import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The API log rows, on the plain reactive client only (written in batches, read by the dashboard). */
@ApplicationScoped
public class ApiLogStore {

    @Inject
    Pool pool;

    /** One statement for the whole batch: the columns as arrays, unnested into rows in their order. */
    public Uni<Void> insert(List<ApiLogEntry> batch) {
        int n = batch.size();
        String[] requestIds = new String[n], owners = new String[n], modes = new String[n], keys = new String[n],
                methods = new String[n], paths = new String[n], requests = new String[n], responses = new String[n];
        Integer[] statuses = new Integer[n];
        Long[] latencies = new Long[n];
        OffsetDateTime[] at = new OffsetDateTime[n];
        for (int i = 0; i < n; i++) {
            ApiLogEntry e = batch.get(i);
            requestIds[i] = e.requestId();
            owners[i] = e.ownerId();
            modes[i] = e.mode();
            keys[i] = e.keyId();
            methods[i] = e.method();
            paths[i] = e.path();
            statuses[i] = e.status();
            latencies[i] = e.latencyMs();
            requests[i] = e.requestBody();
            responses[i] = e.responseBody();
            at[i] = e.at().atOffset(ZoneOffset.UTC);
        }
        return pool.preparedQuery("INSERT INTO checkout.api_logs (request_id, owner_id, mode, key_id, method, path, status,"
                        + " latency_ms, request_body, response_body, created_at) SELECT * FROM unnest($1::text[], $2::text[],"
                        + " $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[], $8::int8[], $9::text[], $10::text[],"
                        + " $11::timestamptz[])")
                .execute(Tuple.from(new Object[] {requestIds, owners, modes, keys, methods, paths, statuses, latencies, requests,
                        responses, at}))
                .replaceWithVoid();
    }

    /** Deletes at most {@code limit} of the oldest rows written before the cutoff; answers how many it deleted. */
    public Uni<Integer> deleteBefore(Instant cutoff, int limit) {
        return pool.preparedQuery("DELETE FROM checkout.api_logs WHERE seq IN (SELECT seq FROM checkout.api_logs"
                        + " WHERE created_at < $1 ORDER BY seq LIMIT $2)")
                .execute(Tuple.of(cutoff.atOffset(ZoneOffset.UTC), limit)).map(rows -> rows.rowCount());
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
