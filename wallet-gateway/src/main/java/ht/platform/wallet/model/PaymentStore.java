package ht.platform.wallet.model;

import ht.platform.support.http.Paging;
import ht.platform.support.sql.NewestFirst;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.sql.Rows;
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
 * Every query of payments. Methods named {@code read…} open their own session; the others run inside the caller's
 * session or transaction.
 */
@ApplicationScoped
public class PaymentStore {

    static final String BY_ID = "SELECT " + Payment.COLUMNS
            + " FROM wallet.payments WHERE id = $1";

    static final String EXPIRED = "SELECT p.id FROM wallet.payments p WHERE p.status IN ('created', 'pending')"
            + " AND p.expires_at <= $1"
            + " AND NOT EXISTS (SELECT 1 FROM wallet.moncash_orders o WHERE o.payment_id = p.id AND o.settled_at IS NULL)"
            + " ORDER BY p.expires_at LIMIT $2";

    @Inject
    Pool pool;

    /**
     * The hottest read, or 404: one prepared statement on the plain reactive client, no ORM session (see the
     * README's benchmarks); the payment is detached.
     */
    public Uni<Payment> readOwned(String id, String projectId, String mode) {
        return pool.preparedQuery(BY_ID).execute(Tuple.of(id)).map(rows -> Rows.owned(rows, "project_id", projectId, mode,
                Payment::fromRow, () -> ApiException.notFound("Payment " + id)));
    }

    /** Up to {@code limit} of the project's payments after {@code after}, newest first. */
    public Uni<List<Payment>> readPage(String projectId, String mode, String after, int limit) {
        return new NewestFirst<>(Payment.class, "projectId").page(projectId, mode, null, null, after,
                Paging.UNKNOWN_CURSOR, limit);
    }

    /** The table a new payment is written into ({@link OneStatementCreate}), its values {@link #newValues}. */
    public static final OneStatementCreate.Table NEW = OneStatementCreate.Table.of("wallet.payments", "id text,"
            + " project_id text, mode text, status text, amount bigint, fee bigint, total bigint, currency text,"
            + " reference text, description text, return_url text, page_token text, created_at timestamptz,"
            + " expires_at timestamptz");

    public static List<Object> newValues(Payment p) {
        return OneStatementCreate.row(p.id, p.projectId, p.mode, p.status, p.amount, p.fee, p.total, p.currency,
                p.reference, p.description, p.returnUrl, p.pageToken, OneStatementCreate.time(p.createdAt),
                OneStatementCreate.time(p.expiresAt));
    }

    public Uni<Payment> persist(Payment payment) {
        return payment.persist();
    }

    /** The caller's payment under a row lock, or 404. */
    public Uni<Payment> lockOwned(String id, String projectId, String mode) {
        return Payment.<Payment>findById(id, LockModeType.PESSIMISTIC_WRITE).invoke(p -> {
            if (p == null || !Rows.isOwners(p.projectId, p.mode, projectId, mode)) {
                throw ApiException.notFound("Payment " + id);
            }
        });
    }

    public Uni<Payment> lock(String id) {
        return Payment.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The payment of a hosted page under a row lock, or null. */
    public Uni<Payment> lockByToken(String token) {
        return Payment.<Payment>find("pageToken", token).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /**
     * Ids of unpaid payments whose time is up and that no open MonCash order may still pay, the longest due first, at
     * most {@code limit}.
     */
    public Uni<List<String>> readExpired(Instant now, int limit) {
        return pool.preparedQuery(EXPIRED).execute(Tuple.of(now.atOffset(ZoneOffset.UTC), limit))
                .map(rows -> Rows.strings(rows, "id"));
    }
}
