package ht.platform.wallet.service;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.wallet.service.Views.BalanceView;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The merchant balance per (project, mode, currency). Every change is one guarded SQL statement in the caller's
 * transaction: a reservation only succeeds while {@code available >= total}, so concurrent withdrawals can never
 * drive the available balance below zero (the row lock of the UPDATE serialises them).
 */
@ApplicationScoped
public class BalanceService {

    @Inject
    Clock clock;

    public Uni<BalanceView> get(ApiPrincipal caller) {
        return Panache.withSession(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT available, reserved FROM wallet.balances WHERE project_id = :p AND mode = :m AND currency = :c",
                        Object[].class)
                .setParameter("p", caller.ownerId()).setParameter("m", caller.mode()).setParameter("c", PaymentService.CURRENCY)
                .getSingleResultOrNull()))
                .map(row -> new BalanceView("balance", row == null ? 0 : ((Number) row[0]).longValue(),
                        row == null ? 0 : ((Number) row[1]).longValue(), PaymentService.CURRENCY, caller.mode()));
    }

    /** payment.succeeded: available += amount. */
    public Uni<Void> credit(String projectId, String mode, String currency, long amount) {
        return session().chain(s -> s.createNativeQuery("INSERT INTO wallet.balances (project_id, mode, currency, available, reserved, updated_at)"
                        + " VALUES (:p, :m, :c, :amount, 0, :now) ON CONFLICT (project_id, mode, currency)"
                        + " DO UPDATE SET available = wallet.balances.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at")
                .setParameter("p", projectId).setParameter("m", mode).setParameter("c", currency)
                .setParameter("amount", amount).setParameter("now", now())
                .executeUpdate()).replaceWithVoid();
    }

    /** Withdrawal created: available -= total, reserved += total, only when enough is available (else 409). */
    public Uni<Void> reserve(String projectId, String mode, String currency, long total) {
        return session().chain(s -> s.createNativeQuery("UPDATE wallet.balances SET available = available - :total,"
                        + " reserved = reserved + :total, updated_at = :now"
                        + " WHERE project_id = :p AND mode = :m AND currency = :c AND available >= :total")
                .setParameter("p", projectId).setParameter("m", mode).setParameter("c", currency)
                .setParameter("total", total).setParameter("now", now())
                .executeUpdate()).invoke(updated -> {
                    if (updated != 1) {
                        throw new ApiException(409, "INSUFFICIENT_BALANCE",
                                "The available balance does not cover this withdrawal's total (amount plus fee)", "amount");
                    }
                }).replaceWithVoid();
    }

    /** failed | rejected | cancelled: the reservation goes back to available. */
    public Uni<Void> release(String projectId, String mode, String currency, long total) {
        return move(projectId, mode, currency, "available = available + :total, reserved = reserved - :total", total);
    }

    /** completed: the reservation is spent. */
    public Uni<Void> consume(String projectId, String mode, String currency, long total) {
        return move(projectId, mode, currency, "reserved = reserved - :total", total);
    }

    private Uni<Void> move(String projectId, String mode, String currency, String set, long total) {
        return session().chain(s -> s.createNativeQuery("UPDATE wallet.balances SET " + set + ", updated_at = :now"
                        + " WHERE project_id = :p AND mode = :m AND currency = :c AND reserved >= :total")
                .setParameter("p", projectId).setParameter("m", mode).setParameter("c", currency)
                .setParameter("total", total).setParameter("now", now())
                .executeUpdate()).invoke(updated -> {
                    if (updated != 1) {
                        throw new IllegalStateException("reservation missing for " + projectId + "/" + mode);
                    }
                }).replaceWithVoid();
    }

    private Uni<Mutiny.Session> session() {
        return Panache.getSession();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
