package ht.platform.support.rail;

import ht.platform.rail.moncash.MonCashException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Payouts by MonCash {@code Transfert} from the prefunded balance, as both services make them (wallet withdrawals,
 * checkout refunds). The transfer's {@code reference} is the caller's own id, so a transfer whose answer was lost is
 * found by {@link #lookup} and never sent twice: {@link #payOnce} always looks it up before sending.
 */
@ApplicationScoped
public class MonCashPayouts {

    /** SENT: MonCash paid the receiver. REFUSED: it did not and will not. UNKNOWN: it may have (look it up later). */
    public enum Result { SENT, REFUSED, UNKNOWN }

    public record Outcome(Result result, String reason, String detail) {

        static Outcome sent() {
            return new Outcome(Result.SENT, null, null);
        }

        static Outcome refused(String reason, String detail) {
            return new Outcome(Result.REFUSED, reason, detail);
        }

        static Outcome unknown(String detail) {
            return new Outcome(Result.UNKNOWN, "provider_unknown", detail);
        }
    }

    @Inject
    MonCashRail rail;

    /** What became of the transfer with this reference; empty when MonCash has none (it never happened). */
    public Uni<Optional<Outcome>> lookup(String reference) {
        return rail.call(c -> c.transferStatus(reference)).map(found -> found.map(MonCashPayouts::settled));
    }

    /** Looks the reference up, then sends only when MonCash has no such transfer. */
    public Uni<Outcome> payOnce(String reference, BigDecimal amount, String receiver, String desc) {
        return lookup(reference).chain(found -> found.isPresent() ? Uni.createFrom().item(found.get())
                        : send(reference, amount, receiver, desc))
                .onFailure().recoverWithItem(MonCashPayouts::unanswered);
    }

    /**
     * Checks the prefunded balance, then sends. Call only after {@link #lookup} found nothing. A refusal is looked up
     * once more: MonCash also refuses a reference it already has, i.e. an earlier transfer whose answer was lost.
     */
    public Uni<Outcome> send(String reference, BigDecimal amount, String receiver, String desc) {
        return rail.call(c -> c.prefundedBalance()).chain(balance -> {
            if (balance.compareTo(amount) < 0) {
                return Uni.createFrom().item(Outcome.refused("insufficient_prefunded_balance",
                        "The MonCash prefunded balance does not cover this payout"));
            }
            return rail.call(c -> c.transfer(reference, amount, receiver, desc)).map(t -> Outcome.sent())
                    .onFailure(MonCashPayouts::refusal).recoverWithUni(refusal -> lookup(reference)
                            .map(found -> found.orElseGet(() -> Outcome.refused("provider_declined", refusal.getMessage()))));
        }).onFailure().recoverWithItem(MonCashPayouts::unanswered);
    }

    private static Outcome settled(String moncashStatus) {
        return moncashStatus.equalsIgnoreCase("successful") ? Outcome.sent()
                : Outcome.unknown("MonCash reports the transfer as " + moncashStatus);
    }

    private static boolean refusal(Throwable e) {
        return e instanceof MonCashException m && m.kind() == MonCashException.Kind.REFUSED;
    }

    /** Nothing sent (breaker open), or no answer: either way the payout is still open and is looked up again. */
    private static Outcome unanswered(Throwable e) {
        return Outcome.unknown(e instanceof MonCashException ? e.getMessage() : e.getClass().getSimpleName());
    }
}
