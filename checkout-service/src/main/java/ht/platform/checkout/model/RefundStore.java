package ht.platform.checkout.model;

import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Every query of refunds. Methods named {@code read…} open their own session; the others run inside the caller's
 * session or transaction.
 */
@ApplicationScoped
public class RefundStore {

    static final String PENDING = "SELECT id FROM checkout.refunds WHERE status = 'pending' AND created_at < $1"
            + " ORDER BY updated_at LIMIT $2";

    @Inject
    Pool pool;

    public Uni<Refund> byId(String id) {
        return Refund.findById(id);
    }

    public Uni<Refund> read(String id) {
        return Panache.withSession(() -> byId(id));
    }

    public Uni<Refund> lock(String id) {
        return Refund.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    public Uni<Refund> persist(Refund refund) {
        return refund.persist();
    }

    /** Writes pending changes so that what follows in the transaction (an event) sees them. */
    public Uni<Void> flush() {
        return Panache.getSession().chain(s -> s.flush());
    }

    /** Refunds of the intent that count against what it received: pending and succeeded. */
    public Uni<List<Refund>> committed(String intentId) {
        return Refund.<Refund>find("paymentIntentId = ?1 and status in ('pending', 'succeeded')", intentId).list();
    }

    /** The newest refunds of an application in one mode, at most {@code limit}. */
    public Uni<List<Refund>> readLatest(String applicationId, String mode, int limit) {
        return Panache.withSession(() -> Refund.<Refund>find("applicationId = ?1 and mode = ?2 order by createdAt desc, id desc",
                applicationId, mode).range(0, limit - 1).list());
    }

    /** Ids of pending refunds created before {@code createdBefore} (oldest update first), at most {@code limit}. */
    public Uni<List<String>> readPending(Instant createdBefore, int limit) {
        return pool.preparedQuery(PENDING).execute(Tuple.of(createdBefore.atOffset(ZoneOffset.UTC), limit))
                .map(rows -> Rows.strings(rows, "id"));
    }
}
