package ht.platform.wallet.service;

import ht.platform.support.time.DatabaseTime;
import ht.platform.wallet.model.WithdrawalStatus;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.events.EventOutbox;
import ht.platform.wallet.model.Withdrawal;
import ht.platform.wallet.model.WithdrawalStore;
import ht.platform.wallet.service.Views.ListView;
import ht.platform.wallet.service.Views.WithdrawalView;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Withdrawals: requested -> processing -> completed | failed; requested -> rejected | cancelled. Creation
 * reserves the total in the same transaction; failed/rejected/cancelled release it, completed consumes it.
 */
@ApplicationScoped
public class WithdrawalService {

    private static final Pattern MSISDN = Pattern.compile("\\+?[0-9]{8,15}");

    public record DestinationInput(String type, String msisdn) { }

    public record CreateWithdrawal(Long amount, String currency, DestinationInput destination, String reference) { }

    /** action -> (to, event); where it may start from is {@link WithdrawalStatus#GRAPH}'s. */
    private record Move(String to, String event) { }

    private static final Map<String, Move> MOVES = Map.of(
            "process", new Move("processing", "withdrawal.processing"),
            "complete", new Move("completed", "withdrawal.completed"),
            "fail", new Move("failed", "withdrawal.failed"),
            "reject", new Move("rejected", "withdrawal.rejected"),
            "cancel", new Move("cancelled", "withdrawal.cancelled"));

    @Inject
    Clock clock;

    @Inject
    WithdrawalStore store;

    @Inject
    WalletSettings settings;

    @Inject
    EventOutbox events;

    @Inject
    BalanceService balances;

    @Inject
    Idempotency idempotency;

    public void validate(CreateWithdrawal body) {
        MoneyRequests.bodyPresent(body);
        MoneyRequests.amount(body.amount(), settings.withdrawals().maxAmount());
        if (body.currency() != null && !PaymentService.CURRENCY.equals(body.currency())) {
            throw ApiException.invalid("currency", "currency must be HTG");
        }
        if (body.destination() == null) {
            throw ApiException.invalid("destination", "destination is required: {\"type\":\"wallet\",\"msisdn\":\"+509...\"}");
        }
        if (!"wallet".equals(body.destination().type())) {
            throw ApiException.invalid("destination.type", "destination.type must be 'wallet'");
        }
        if (body.destination().msisdn() == null || !MSISDN.matcher(body.destination().msisdn()).matches()) {
            throw ApiException.invalid("destination.msisdn", "destination.msisdn must be a phone number of 8 to 15 digits, optionally with a leading +");
        }
        MoneyRequests.reference(body.reference());
    }

    /** Runs inside the idempotency transaction: reserve, record, event; all or nothing. */
    /** POST /api/v1/withdrawals: idempotent by the required key. */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, CreateWithdrawal body) {
        String key = idempotency.validateKey(idempotencyKey, true);
        validate(body);
        return idempotency.run(caller, key, idempotency.fingerprint(body), () -> insert(caller, body));
    }

    private Uni<StoredResponse> insert(ApiPrincipal caller, CreateWithdrawal body) {
        Instant now = now();
        Withdrawal w = new Withdrawal();
        w.id = Ids.hex("wd_", 12);
        w.projectId = caller.ownerId();
        w.mode = caller.mode();
        w.status = "requested";
        w.amount = body.amount();
        Fees.Charge charge = Fees.charge(w.amount, settings.withdrawals().feeBasisPoints(), settings.withdrawals().feeMinimum());
        w.fee = charge.fee();
        w.total = charge.total();
        w.currency = PaymentService.CURRENCY;
        w.destinationType = body.destination().type();
        w.msisdn = body.destination().msisdn();
        w.reference = body.reference();
        w.createdAt = now;
        return balances.reserve(w.projectId, w.mode, w.currency, w.total)
                .chain(() -> store.persist(w))
                .chain(() -> events.publish(w.projectId, w.mode, "withdrawal.requested", w.id, WithdrawalView.of(w)))
                .map(e -> idempotency.response(201, WithdrawalView.of(w)));
    }

    public Uni<WithdrawalView> get(ApiPrincipal caller, String id) {
        return store.readOwned(id, caller.ownerId(), caller.mode()).map(WithdrawalView::of);
    }

    public Uni<ListView<WithdrawalView>> list(ApiPrincipal caller, Paging paging) {
        return store.readPage(caller.ownerId(), caller.mode(), paging.startingAfter(), paging.limit() + 1).map(rows -> ListView.of(rows.stream().limit(paging.limit()).map(WithdrawalView::of).toList(),
                rows.size() > paging.limit()));
    }

    /** cancel (merchant) or a test helper: one move of the graph under a row lock, with its balance effect and event. */
    public Uni<WithdrawalView> transition(ApiPrincipal caller, String id, String action) {
        return Panache.withTransaction(() -> store.lockOwned(id, caller.ownerId(), caller.mode())
                .chain(w -> apply(w, action, null))).map(WithdrawalView::of);
    }

    /**
     * One move of a locked withdrawal with its balance effect and event, in the caller's transaction; a failure
     * carries {@code failureReason} (null: the move's own).
     */
    public Uni<Withdrawal> apply(Withdrawal w, String action, String failureReason) {
        Move move = MOVES.get(action);
        if (!WithdrawalStatus.GRAPH.canMove(w.status, move.to())) {
            if ("cancel".equals(action)) {
                throw new ApiException(409, "WITHDRAWAL_NOT_CANCELLABLE",
                        "Only a requested withdrawal can be cancelled; this one is " + w.status);
            }
            throw new ApiException(409, "INVALID_WITHDRAWAL_STATE", "Cannot " + action + " a withdrawal that is "
                    + w.status + " (allowed from: " + String.join(", ", WithdrawalStatus.GRAPH.from(move.to())) + ")");
        }
        Instant now = now();
        w.status = move.to();
        Uni<Void> effect = Uni.createFrom().voidItem();
        switch (move.to()) {
            case "processing" -> w.processingAt = now;
            case "completed" -> {
                w.completedAt = now;
                effect = balances.consume(w.projectId, w.mode, w.currency, w.total);
            }
            case "failed" -> {
                w.failedAt = now;
                w.failureReason = failureReason != null ? failureReason : "transfer_failed";
                effect = balances.release(w.projectId, w.mode, w.currency, w.total);
            }
            case "rejected" -> {
                w.rejectedAt = now;
                w.failureReason = "rejected_by_gateway";
                effect = balances.release(w.projectId, w.mode, w.currency, w.total);
            }
            case "cancelled" -> {
                w.cancelledAt = now;
                effect = balances.release(w.projectId, w.mode, w.currency, w.total);
            }
            default -> { }
        }
        return effect.chain(() -> events.publish(w.projectId, w.mode, move.event(), w.id, WithdrawalView.of(w)))
                .replaceWith(w);
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
