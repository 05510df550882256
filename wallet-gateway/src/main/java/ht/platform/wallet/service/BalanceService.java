package ht.platform.wallet.service;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.wallet.model.BalanceStore;
import ht.platform.wallet.service.Views.BalanceView;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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

    @Inject
    BalanceStore balances;

    public Uni<BalanceView> get(ApiPrincipal caller) {
        return balances.read(caller.ownerId(), caller.mode(), PaymentService.CURRENCY)
                .map(row -> new BalanceView("balance", row == null ? 0 : row[0], row == null ? 0 : row[1],
                        PaymentService.CURRENCY, caller.mode()));
    }

    /** payment.succeeded: available += amount. */
    public Uni<Void> credit(String projectId, String mode, String currency, long amount) {
        return balances.credit(projectId, mode, currency, amount, now()).replaceWithVoid();
    }

    /** Withdrawal created: available -= total, reserved += total, only when enough is available (else 409). */
    public Uni<Void> reserve(String projectId, String mode, String currency, long total) {
        return balances.reserve(projectId, mode, currency, total, now()).invoke(updated -> {
            if (updated != 1) {
                throw new ApiException(409, "INSUFFICIENT_BALANCE",
                        "The available balance does not cover this withdrawal's total (amount plus fee)", "amount");
            }
        }).replaceWithVoid();
    }

    /** failed | rejected | cancelled: the reservation goes back to available. */
    public Uni<Void> release(String projectId, String mode, String currency, long total) {
        return balances.release(projectId, mode, currency, total, now()).invoke(updated -> reservationFound(updated, projectId, mode))
                .replaceWithVoid();
    }

    /** completed: the reservation is spent. */
    public Uni<Void> consume(String projectId, String mode, String currency, long total) {
        return balances.consume(projectId, mode, currency, total, now()).invoke(updated -> reservationFound(updated, projectId, mode))
                .replaceWithVoid();
    }

    private static void reservationFound(int updated, String projectId, String mode) {
        if (updated != 1) {
            throw new IllegalStateException("reservation missing for " + projectId + "/" + mode);
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
