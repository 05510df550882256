package ht.platform.kyc.service;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.events.KycDeliveryStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.DeliveryRecovery;
import ht.platform.support.sql.Rows;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook deliveries of one application and mode, as its dashboard sees them: the list, one delivery with its
 * attempts, Resend, and the recovery of a window. Another tenant's or mode's delivery is 404.
 */
@ApplicationScoped
public class WebhookDeliveries {

    public static final List<String> STATUSES = List.of("pending", "delivered", "dead");

    public record AttemptView(int attempt_number, String attempted_at, String url, boolean success, Integer status_code,
                              long latency_ms, String error, String response_excerpt) { }

    public record DeliveryView(String id, String event_id, String event_type, String status, int attempts,
                               String next_attempt_at, Integer last_status, String created_at, String delivered_at,
                               String dead_at, List<AttemptView> attempt_list) {
        public boolean resendable() {
            return !"pending".equals(status);
        }
    }

    /** A page of deliveries; {@code next} is the cursor of the following page, null at the end. */
    public record Page(List<DeliveryView> data, String next) { }

    private static final String COLUMNS = "d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status,"
            + " d.created_at, d.delivered_at, d.dead_at FROM kyc.deliveries d JOIN kyc.events e ON e.id = d.event_id"
            + " WHERE d.application_id = $1 AND e.mode = $2";

    @Inject
    Pool pool;

    @Inject
    KycDeliveryStore store;

    @Inject
    KycDeliveryPolicy policy;

    @Inject
    DeliveryRecovery recovery;

    /** Newest first, optionally of one status, after the cursor {@code startingAfter} (a delivery id). */
    public Uni<Page> list(ApiPrincipal caller, String status, String startingAfter, int limit) {
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.invalid("status", "status must be one of " + STATUSES);
        }
        return pool.preparedQuery("SELECT " + COLUMNS + " AND ($3::text IS NULL OR d.status = $3)"
                        + " AND ($4::text IS NULL OR (d.created_at, d.id) < (SELECT c.created_at, c.id FROM kyc.deliveries c WHERE c.id = $4))"
                        + " ORDER BY d.created_at DESC, d.id DESC LIMIT $5")
                .execute(Tuple.of(caller.ownerId(), caller.mode(), status, startingAfter, limit + 1))
                .map(rows -> {
                    List<DeliveryView> out = new ArrayList<>();
                    rows.forEach(r -> out.add(view(r, List.of())));
                    boolean more = out.size() > limit;
                    List<DeliveryView> page = more ? out.subList(0, limit) : out;
                    return new Page(page, more ? page.get(limit - 1).id() : null);
                });
    }

    public Uni<DeliveryView> get(ApiPrincipal caller, String id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " AND d.id = $3").execute(Tuple.of(caller.ownerId(), caller.mode(), id))
                .map(rows -> Rows.single(rows, r -> r, "Webhook delivery " + id))
                .chain(row -> pool.preparedQuery("SELECT attempt_number, attempted_at, url, success, status_code, latency_ms, error,"
                                + " response_excerpt FROM kyc.delivery_attempts WHERE delivery_id = $1 ORDER BY id")
                        .execute(Tuple.of(id)).map(attempts -> {
                            List<AttemptView> list = new ArrayList<>();
                            attempts.forEach(a -> list.add(new AttemptView(a.getInteger("attempt_number"),
                                    time(a, "attempted_at"), a.getString("url"), a.getBoolean("success"),
                                    a.getInteger("status_code"), a.getLong("latency_ms"), a.getString("error"),
                                    a.getString("response_excerpt"))));
                            return view(row, list);
                        }));
    }

    /** A dead or delivered delivery goes out again now, with a fresh retry schedule. */
    public Uni<DeliveryView> resend(ApiPrincipal caller, String id) {
        return get(caller, id).chain(d -> store.resend(id)).chain(n -> {
            if (n == 0) {
                throw new ApiException(409, "DELIVERY_ALREADY_PENDING", "Webhook delivery " + id + " is already queued");
            }
            return get(caller, id);
        });
    }

    /** Recover a window of this mode's webhook address: see {@link DeliveryRecovery}. */
    public Uni<DeliveryRecovery.Recovered> recover(ApiPrincipal caller, Instant since, Instant until) {
        return recovery.recover(policy, caller.ownerId(), caller.mode(), since, until);
    }

    private static DeliveryView view(Row r, List<AttemptView> attempts) {
        return new DeliveryView(r.getString("id"), r.getString("event_id"), r.getString("type"), r.getString("status"),
                r.getInteger("attempts"), time(r, "next_attempt_at"), r.getInteger("last_status"), time(r, "created_at"),
                time(r, "delivered_at"), time(r, "dead_at"), attempts);
    }

    private static String time(Row r, String column) {
        return Timestamps.seconds(Rows.instant(r, column));
    }
}
