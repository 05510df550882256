package ht.platform.wallet.service;

import ht.platform.rail.moncash.MonCashException;
import ht.platform.rail.moncash.OrderPayment;
import ht.platform.rail.moncash.PaymentToken;
import ht.platform.rail.moncash.quarkus.MonCashPayouts;
import ht.platform.support.time.DatabaseTime;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.model.MonCashOrder;
import ht.platform.wallet.model.MonCashOrderStore;
import ht.platform.wallet.model.Payment;
import ht.platform.wallet.model.PaymentStore;
import ht.platform.wallet.provider.MonCashWallet;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Live payments through MonCash. The customer is sent to a MonCash payment page (the payment goes pending then);
 * only MonCash's lookup of the order, with the amount equal to the total, makes it succeeded and credits the balance
 * (one transaction with the event). An order whose creation got no answer stays open and is looked up like the
 * others; an order ends not paid only once its page has lapsed and MonCash still shows nothing.
 */
@ApplicationScoped
public class MonCashPayments {

    private static final Logger LOG = Logger.getLogger(MonCashPayments.class);

    /** Where the customer goes: MonCash's page, or back to the wallet page ({@code redirectUrl} null). */
    public record Sent(Payment payment, String redirectUrl) { }

    /** What the first transaction decided: the payment, a payable page to reuse, or a new orderId to create. */
    private record Plan(Payment payment, String redirectUrl, String newOrderId) { }

    @Inject
    PaymentService payments;

    @Inject
    MonCashWallet moncash;

    @Inject
    WalletSettings settings;

    @Inject
    Clock clock;

    @Inject
    PaymentStore paymentRows;

    @Inject
    MonCashOrderStore orders;

    /**
     * The customer chose to pay: their MonCash page, reused while it is payable, else a new MonCash payment. A
     * refused creation (MonCash already has that orderId, e.g. from a call whose answer was lost) is tried once more
     * under the next orderId. Answers null when no payment has this page token.
     */
    public Uni<Sent> send(String pageToken) {
        return plan(pageToken).chain(plan -> {
            if (plan == null || plan.newOrderId() == null) {
                return Uni.createFrom().item(plan == null ? null : new Sent(plan.payment(), plan.redirectUrl()));
            }
            return create(plan).onFailure(MonCashPayments::refused).recoverWithUni(() -> plan(pageToken)
                            .chain(again -> again.newOrderId() == null ? Uni.createFrom().item(new Sent(again.payment(), again.redirectUrl()))
                                    : create(again)))
                    .onFailure(MonCashException.class).recoverWithItem(e -> {
                        LOG.warnf("MonCash payment for %s not created: %s", plan.payment().id, e.getMessage());
                        return new Sent(plan.payment(), null);
                    });
        });
    }

    private static boolean refused(Throwable e) {
        return e instanceof MonCashException m && m.kind() == MonCashException.Kind.REFUSED;
    }

    /** Under the payment's lock: expiry, a payable page to reuse, or a new order recorded before MonCash is called. */
    private Uni<Plan> plan(String pageToken) {
        return Panache.withTransaction(() -> payments.lockByToken(pageToken).chain(found -> found == null
                ? Uni.createFrom().nullItem()
                : payments.opened(found).chain(p -> {
                    if (p.isFinal() || !payments.viaMonCash(p)) {
                        return Uni.createFrom().item(new Plan(p, null, null));
                    }
                    return orders.ofPayment(p.id).chain(known -> {
                        Instant now = now();
                        Optional<MonCashOrder> payable = known.stream().filter(o -> o.payableAt(now)).findFirst();
                        if (payable.isPresent()) {
                            return Uni.createFrom().item(new Plan(p, payable.get().redirectUrl, null));
                        }
                        MonCashOrder order = new MonCashOrder();
                        order.id = p.id + "-" + (known.size() + 1);
                        order.paymentId = p.id;
                        order.createdAt = now;
                        return orders.persist(order).replaceWith(new Plan(p, null, order.id));
                    });
                })));
    }

    /** CreatePayment, then (payment locked) the page recorded on the order and created -> pending. */
    private Uni<Sent> create(Plan plan) {
        return moncash.createPayment(plan.newOrderId(), plan.payment().total).chain(token -> Panache.withTransaction(
                () -> paymentRows.lock(plan.payment().id).chain(p -> orders
                        .byId(plan.newOrderId()).chain(order -> recordPage(order, token))
                        .chain(() -> p.isFinal() ? Uni.createFrom().item(new Sent(p, null))
                                : payments.sentToWallet(p).map(pending -> new Sent(pending, token.redirectUrl().toString()))))));
    }

    private Uni<MonCashOrder> recordPage(MonCashOrder order, PaymentToken token) {
        order.redirectUrl = token.redirectUrl().toString();
        order.tokenExpiresAt = token.expiresAt() != null ? token.expiresAt() : order.createdAt.plus(MonCashWallet.PAYMENT_PAGE_LIFE);
        return Uni.createFrom().item(order);
    }

    /**
     * The customer is back from MonCash with a transaction id: the payment it names is settled from MonCash's own
     * record. Answers the page token of the payment, or null when MonCash does not show this transaction (yet).
     */
    public Uni<String> returned(String transactionId) {
        return moncash.transaction(transactionId)
                .onFailure(MonCashException.class).recoverWithItem(e -> {
                    LOG.infof("MonCash transaction lookup on return failed (the reconciler settles): %s", e.getMessage());
                    return Optional.empty();
                })
                .chain(found -> found.isEmpty() ? Uni.createFrom().<String>nullItem()
                        : settle(found.get()).map(p -> p == null ? null : p.pageToken));
    }

    /** One pass over the open orders of live payments; answers how many were looked at. */
    public Uni<Integer> reconcile() {
        if (!moncash.configured()) {
            return Uni.createFrom().item(0);
        }
        return orders.readOpen(settings.moncash().batch())
                .chain(open -> Batch.inTurn(open, this::reconcile,
                        (o, e) -> LOG.infof("MonCash order %s not settled yet: %s", o.id, e.getMessage())));
    }

    private Uni<Payment> reconcile(MonCashOrder o) {
        return moncash.order(o.id).chain(found -> {
            if (found.isPresent()) {
                return settle(found.get());
            }
            Instant lapses = (o.tokenExpiresAt != null ? o.tokenExpiresAt : o.createdAt.plus(MonCashWallet.PAYMENT_PAGE_LIFE))
                    .plus(settings.moncash().grace());
            return now().isBefore(lapses) ? Uni.createFrom().nullItem() : lapse(o.id);
        });
    }

    /**
     * MonCash's record of a payment: the order settles, and the payment succeeds when the total was collected. Money
     * that credits nothing (another amount, a payment already final) is given back to the payer. An order that had
     * lapsed is settled again when MonCash shows it paid after all.
     */
    private Uni<Payment> settle(OrderPayment reported) {
        if (reported.reference() == null || !reported.successful()) {
            return Uni.createFrom().nullItem();
        }
        return Panache.withTransaction(() -> orders.byId(reported.reference()).chain(known -> known == null
                ? Uni.createFrom().<Payment>nullItem()
                : paymentRows.lock(known.paymentId).chain(p -> orders
                        .lock(known.id).chain(order -> {
                            if (order.settledAt != null && !"not_paid".equals(order.outcome)) {
                                return Uni.createFrom().item(p);
                            }
                            order.settledAt = now();
                            order.transactionId = reported.transactionId();
                            if (MonCashWallet.collected(reported, p.total) && !p.isFinal()) {
                                order.outcome = "paid";
                                return payments.apply(p, "succeed");
                            }
                            order.outcome = p.isFinal() ? "paid_after_final" : "amount_mismatch";
                            order.collected = reported.cost();
                            order.payer = reported.payer();
                            order.givenBack = "pending";
                            LOG.warnf("MonCash order %s of payment %s (%s) collected %s, which credits nothing: given back",
                                    order.id, p.id, p.status, reported.cost());
                            return Uni.createFrom().item(p);
                        }))));
    }

    /** Gives back, by Transfert to the payer, the money of orders that credit nothing; answers how many were tried. */
    public Uni<Integer> giveBack() {
        if (!moncash.configured()) {
            return Uni.createFrom().item(0);
        }
        return orders.readToGiveBack(settings.moncash().batch())
                .chain(pending -> Batch.inTurn(pending, o -> moncash.giveBack(o.id + "-back", o.collected, o.payer, "Return " + o.id)
                        .chain(outcome -> recordGiveBack(o.id, outcome)),
                        (o, e) -> LOG.infof("MonCash order %s: giving back not done yet: %s", o.id, e.getMessage())));
    }

    private Uni<Void> recordGiveBack(String orderId, MonCashPayouts.Outcome outcome) {
        if (outcome.result() == MonCashPayouts.Result.UNKNOWN) {
            return Uni.createFrom().voidItem(); // looked up by reference on the next pass, before anything is sent again
        }
        return Panache.withTransaction(() -> orders.lock(orderId)
                .invoke(order -> {
                    order.givenBack = outcome.result() == MonCashPayouts.Result.SENT ? "sent" : "refused";
                    if (outcome.result() == MonCashPayouts.Result.REFUSED) {
                        LOG.warnf("MonCash order %s: giving the money back was refused (%s); an operator must act", orderId,
                                outcome.reason());
                    }
                })).replaceWithVoid();
    }

    private Uni<Payment> lapse(String orderId) {
        return Panache.withTransaction(() -> orders.lock(orderId)
                .invoke(order -> {
                    if (order.settledAt == null) {
                        order.settledAt = now();
                        order.outcome = "not_paid";
                    }
                })).replaceWith(Uni.createFrom().nullItem());
    }

    /** The orders of a payment, newest first (the dashboard and tests read them). */
    public Uni<List<MonCashOrder>> orders(String paymentId) {
        return orders.readOfPayment(paymentId);
    }

    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
