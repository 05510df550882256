package ht.platform.wallet.model;

import ht.platform.support.http.Paging;
import ht.platform.support.sql.NewestFirst;
import ht.platform.support.errors.ApiException;
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
import java.util.List;

/**
 * Every query of withdrawals. Methods named {@code read…} or {@code claim…} open their own session or use the plain
 * reactive client; the others run inside the caller's session or transaction.
 */
@ApplicationScoped
public class WithdrawalStore {

    private static final String REQUESTED = "SELECT id FROM wallet.withdrawals WHERE mode = 'live' AND status = 'requested'"
            + " ORDER BY created_at LIMIT :n FOR UPDATE SKIP LOCKED";

    /** Claims the processing withdrawals whose last attempt has ended unanswered: one replica, one attempt. */
    private static final String STALE = "UPDATE wallet.withdrawals SET payout_attempted_at = $1 WHERE id IN (SELECT id"
            + " FROM wallet.withdrawals WHERE mode = 'live' AND status = 'processing' AND payout_attempted_at <= $2"
            + " ORDER BY payout_attempted_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id";

    @Inject
    Pool pool;

    public Uni<Withdrawal> persist(Withdrawal withdrawal) {
        return withdrawal.persist();
    }

    public Uni<Withdrawal> byId(String id) {
        return Withdrawal.findById(id);
    }

    public Uni<Withdrawal> lock(String id) {
        return Withdrawal.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The caller's withdrawal, or 404. */
    public Uni<Withdrawal> readOwned(String id, String projectId, String mode) {
        return Panache.withSession(() -> Withdrawal.<Withdrawal>findById(id)).invoke(w -> found(w, id, projectId, mode));
    }

    /** The caller's withdrawal under a row lock, or 404. */
    public Uni<Withdrawal> lockOwned(String id, String projectId, String mode) {
        return Withdrawal.<Withdrawal>findById(id, LockModeType.PESSIMISTIC_WRITE).invoke(w -> found(w, id, projectId, mode));
    }

    /** Up to {@code limit} of the project's withdrawals after {@code after}, newest first. */
    public Uni<List<Withdrawal>> readPage(String projectId, String mode, String after, int limit) {
        return new NewestFirst<>(Withdrawal.class, "projectId").page(projectId, mode, null, null, after,
                Paging.UNKNOWN_CURSOR, limit);
    }

    /** Ids of requested live withdrawals, oldest first, locked for the caller's transaction (others skip them). */
    public Uni<List<String>> lockRequestedLive(int limit) {
        return Panache.getSession().chain(s -> s.createNativeQuery(REQUESTED, String.class).setParameter("n", limit).getResultList());
    }

    /** Marks processing live withdrawals last attempted at or before {@code attemptedBefore} as attempted {@code now}. */
    public Uni<List<Withdrawal>> claimUnanswered(Instant now, Instant attemptedBefore, int limit) {
        return pool.preparedQuery(STALE).execute(Tuple.of(utc(now), utc(attemptedBefore), limit))
                .chain(rows -> {
                    List<String> ids = Rows.strings(rows, "id");
                    return ids.isEmpty() ? Uni.createFrom().item(List.<Withdrawal>of())
                            : Panache.withSession(() -> Withdrawal.<Withdrawal>list("id in ?1", ids));
                });
    }

    private static void found(Withdrawal w, String id, String projectId, String mode) {
        if (w == null || !Rows.isOwners(w.projectId, w.mode, projectId, mode)) {
            throw ApiException.notFound("Withdrawal " + id);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
