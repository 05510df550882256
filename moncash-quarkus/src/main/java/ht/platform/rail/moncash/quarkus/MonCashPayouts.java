package ht.platform.rail.moncash.quarkus;

import ht.platform.rail.moncash.Htg;
import ht.platform.rail.moncash.MonCashException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;

/**
 * Payouts by MonCash {@code Transfert} from the prefunded balance, as both services make them (wallet withdrawals and
 * give-backs, checkout refunds). The transfer's {@code reference} is the caller's own id, so a transfer whose answer
 * was lost is found by {@link #lookup} and never sent twice: {@link #payOnce} always looks it up before sending.
 *
 * <p>What each answer means, in one place:
 * <ul>
 *   <li>a definitive refusal (a 4xx other than 401/429) of {@code PrefundedBalance} or {@code Transfert}, or a balance
 *       that does not cover the amount: REFUSED, with a reason naming the step and MonCash's message;</li>
 *   <li>a timeout, a broken connection, a 5xx, a 401/429 or the breaker holding the call back: UNKNOWN, the payout
 *       stays open and is looked up by reference on a later pass (a refused lookup too: the transfer may have been
 *       made, so nothing is concluded from it).</li>
 * </ul>
 */
@ApplicationScoped
public class MonCashPayouts {

    /** SENT: MonCash paid the receiver. REFUSED: it did not and will not. UNKNOWN: it may have (look it up later). */
    public enum Result { SENT, REFUSED, UNKNOWN }

    /** {@code reason} is a code ({@code insufficient_prefunded_balance}, {@code transfert_refused}, …), {@code detail} MonCash's words. */
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

    public static final String INSUFFICIENT_PREFUNDED_BALANCE = "insufficient_prefunded_balance";

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
     * Checks the prefunded balance (compared in cents), then sends. Call only after {@link #lookup} found nothing. A
     * refused transfer is looked up once more: MonCash may also refuse a reference it already has, i.e. an earlier
     * transfer whose answer was lost.
     */
    public Uni<Outcome> send(String reference, BigDecimal amount, String receiver, String desc) {
        return rail.call(c -> c.prefundedBalance()).chain(balance -> Htg.covers(balance, amount)
                        ? transfer(reference, amount, receiver, desc)
                        : Uni.createFrom().item(Outcome.refused(INSUFFICIENT_PREFUNDED_BALANCE,
                                "The MonCash prefunded balance does not cover this payout")))
                .onFailure().recoverWithItem(e -> refusal(e) ? refused((MonCashException) e) : unanswered(e));
    }

    private Uni<Outcome> transfer(String reference, BigDecimal amount, String receiver, String desc) {
        return rail.call(c -> c.transfer(reference, amount, receiver, desc)).map(t -> Outcome.sent())
                .onFailure(MonCashPayouts::refusal).recoverWithUni(refusal -> lookup(reference)
                        .map(found -> found.orElseGet(() -> refused((MonCashException) refusal))));
    }

    /** e.g. {@code transfert_refused} with "Transfert answered 403: Maximum Account Balance". */
    private static Outcome refused(MonCashException e) {
        String step = e.call() == null ? "moncash" : e.call().replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
        return Outcome.refused(step + "_refused", e.getMessage());
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
