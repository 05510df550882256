package ht.platform.wallet.model;

import ht.platform.support.http.Paging;
import ht.platform.support.sql.NewestFirst;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.OutboxWriter;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
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

    public Pool pool() {
        return pool;
    }

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

    /** The columns a new payment is written with, in the order of {@link #newValues}. */
    static final String NEW_COLUMNS = "id, project_id, mode, status, amount, fee, total, currency, reference, description,"
            + " return_url, page_token, created_at, expires_at";
    private static final int NEW_VALUES = 14;

    /**
     * A new payment, its idempotency key (when {@code keyEntry} is not null: the CTE entry {@code k} whose parameters
     * come first) and its event, in one statement on the plain reactive client: one round trip and no ORM session for
     * the hottest write. True when the payment was written; false when the key was already there (nothing written).
     */
    public Uni<Boolean> insertInOne(Payment p, String keyEntry, List<Object> keyValues,
                                    java.util.function.IntFunction<OutboxWriter.InOneStatement> event) {
        int from = keyEntry == null ? 1 : keyValues.size() + 1;
        StringBuilder values = new StringBuilder();
        String[] casts = {"text", "text", "text", "text", "bigint", "bigint", "bigint", "text", "text", "text", "text",
                "text", "timestamptz", "timestamptz"};
        for (int i = 0; i < NEW_VALUES; i++) {
            values.append(i == 0 ? "" : ", ").append('$').append(from + i).append("::").append(casts[i]);
        }
        OutboxWriter.InOneStatement ev = event.apply(from + NEW_VALUES);
        String sql = "WITH " + (keyEntry == null ? "" : keyEntry + ", ")
                + "p AS (INSERT INTO wallet.payments (" + NEW_COLUMNS + ") SELECT " + values
                + (keyEntry == null ? "" : " WHERE EXISTS (SELECT 1 FROM k)") + " RETURNING id), " + ev.with()
                + " SELECT (SELECT count(*) FROM p) AS written, " + ev.wakeUp();
        List<Object> all = new ArrayList<>(keyEntry == null ? List.of() : keyValues);
        all.addAll(newValues(p));
        all.addAll(ev.values());
        return pool.preparedQuery(sql).execute(Tuple.tuple(all)).map(rows -> rows.iterator().next().getLong("written") == 1);
    }

    private static List<Object> newValues(Payment p) {
        return Arrays.asList(p.id, p.projectId, p.mode, p.status, p.amount, p.fee, p.total, p.currency, p.reference,
                p.description, p.returnUrl, p.pageToken, OffsetDateTime.ofInstant(p.createdAt, ZoneOffset.UTC),
                OffsetDateTime.ofInstant(p.expiresAt, ZoneOffset.UTC));
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
