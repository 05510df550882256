package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;

/**
 * The balance rows, one per (project, mode, currency): every change is one guarded native statement in the caller's
 * transaction, answering how many rows it changed (0 when the guard refused).
 */
@ApplicationScoped
public class BalanceStore {

    /** {@code [available, reserved]}, or null when the project has no balance yet. */
    public Uni<long[]> read(String projectId, String mode, String currency) {
        return Panache.withSession(() -> Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT available, reserved FROM wallet.balances WHERE project_id = :p AND mode = :m AND currency = :c",
                        Object[].class)
                .setParameter("p", projectId).setParameter("m", mode).setParameter("c", currency)
                .getSingleResultOrNull()))
                .map(row -> row == null ? null : new long[] {((Number) row[0]).longValue(), ((Number) row[1]).longValue()});
    }

    /** available += amount (the row is created on the first credit). */
    public Uni<Integer> credit(String projectId, String mode, String currency, long amount, OffsetDateTime now) {
        return update("INSERT INTO wallet.balances (project_id, mode, currency, available, reserved, updated_at)"
                + " VALUES (:p, :m, :c, :total, 0, :now) ON CONFLICT (project_id, mode, currency)"
                + " DO UPDATE SET available = wallet.balances.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at",
                projectId, mode, currency, amount, now);
    }

    /** available -= total, reserved += total, only while {@code available >= total}. */
    public Uni<Integer> reserve(String projectId, String mode, String currency, long total, OffsetDateTime now) {
        return update("UPDATE wallet.balances SET available = available - :total, reserved = reserved + :total, updated_at = :now"
                + " WHERE project_id = :p AND mode = :m AND currency = :c AND available >= :total", projectId, mode, currency, total, now);
    }

    /** The reservation goes back to available, only while {@code reserved >= total}. */
    public Uni<Integer> release(String projectId, String mode, String currency, long total, OffsetDateTime now) {
        return takeReserved("available = available + :total, reserved = reserved - :total", projectId, mode, currency, total, now);
    }

    /** The reservation is spent, only while {@code reserved >= total}. */
    public Uni<Integer> consume(String projectId, String mode, String currency, long total, OffsetDateTime now) {
        return takeReserved("reserved = reserved - :total", projectId, mode, currency, total, now);
    }

    private Uni<Integer> takeReserved(String set, String projectId, String mode, String currency, long total, OffsetDateTime now) {
        return update("UPDATE wallet.balances SET " + set + ", updated_at = :now"
                + " WHERE project_id = :p AND mode = :m AND currency = :c AND reserved >= :total", projectId, mode, currency, total, now);
    }

    private static Uni<Integer> update(String sql, String projectId, String mode, String currency, long total, OffsetDateTime now) {
        return Panache.getSession().chain(s -> s.createNativeQuery(sql)
                .setParameter("p", projectId).setParameter("m", mode).setParameter("c", currency)
                .setParameter("total", total).setParameter("now", now)
                .executeUpdate());
    }
}
