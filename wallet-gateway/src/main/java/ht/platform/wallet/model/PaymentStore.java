package ht.platform.wallet.model;

import ht.platform.support.http.Paging;
import ht.platform.support.sql.NewestFirst;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.util.List;

/**
 * Every query of payments. Methods named {@code read…} open their own session; the others run inside the caller's
 * session or transaction.
 */
@ApplicationScoped
public class PaymentStore {

    static final String BY_ID = "SELECT " + Payment.COLUMNS
            + " FROM wallet.payments WHERE id = $1";

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

    /** Unpaid payments whose time is up and that no open MonCash order may still pay, at most {@code limit}. */
    public Uni<List<Payment>> readExpired(Instant now, int limit) {
        return Panache.withSession(() -> Payment.<Payment>find("from Payment p where p.status in ('created', 'pending')"
                + " and p.expiresAt <= ?1 and not exists (from MonCashOrder o where o.paymentId = p.id and o.settledAt is null)"
                + " order by p.expiresAt", now).range(0, limit - 1).list());
    }
}
