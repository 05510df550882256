package ht.platform.wallet.provider;

import ht.platform.rail.moncash.Htg;
import ht.platform.rail.moncash.OrderPayment;
import ht.platform.rail.moncash.PaymentToken;
import ht.platform.rail.moncash.quarkus.MonCashPayouts;
import ht.platform.rail.moncash.quarkus.MonCashRail;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The live rail of the gateway: MonCash through the one client both services share, in the gateway's integer
 * gourdes. Configured by MONCASH_*; without them live payments and withdrawals keep waiting as before.
 */
@ApplicationScoped
public class MonCashWallet {

    /** How long MonCash keeps a payment page payable when its answer did not say (its documented 10 minutes). */
    public static final Duration PAYMENT_PAGE_LIFE = Duration.ofMinutes(10);

    @Inject
    MonCashRail rail;

    @Inject
    MonCashPayouts payouts;

    /** Whether live payments and withdrawals go through MonCash. */
    public boolean configured() {
        return rail.configured();
    }

    /** Where customers pay (the pages' form-action must allow it). */
    public URI gatewayBase() {
        return rail.client().gatewayBase();
    }

    /** {@code CreatePayment} of the customer's total under our orderId. */
    public Uni<PaymentToken> createPayment(String orderId, long total) {
        return rail.call(c -> c.createPayment(orderId, Htg.fromWallet(total)));
    }

    /** {@code RetrieveOrderPayment}: empty while MonCash shows no payment under this orderId. */
    public Uni<Optional<OrderPayment>> order(String orderId) {
        return rail.call(c -> c.retrieveOrderPayment(orderId));
    }

    /** {@code RetrieveTransactionPayment}: the payment behind a customer's return. */
    public Uni<Optional<OrderPayment>> transaction(String transactionId) {
        return rail.call(c -> c.retrieveTransactionPayment(transactionId));
    }

    /** Whether MonCash collected exactly {@code total} gourdes, and says the payment succeeded. */
    public static boolean collected(OrderPayment p, long total) {
        return p.successful() && Htg.same(p.cost(), Htg.fromWallet(total));
    }

    /** A withdrawal's transfer under its own reference, looked up before it is ever sent. */
    public Uni<MonCashPayouts.Outcome> payOut(String reference, long amount, String msisdn, String desc) {
        return payouts.payOnce(reference, Htg.fromWallet(amount), msisdn.startsWith("+") ? msisdn.substring(1) : msisdn, desc);
    }

    /** Money MonCash collected that credits nothing, back to the payer's MonCash number, looked up before it is sent. */
    public Uni<MonCashPayouts.Outcome> giveBack(String reference, BigDecimal amount, String payer, String desc) {
        return payouts.payOnce(reference, amount, payer, desc);
    }
}
