package ht.platform.checkout.provider;

import ht.platform.rail.moncash.Htg;
import ht.platform.rail.moncash.MonCashException;
import ht.platform.rail.moncash.OrderPayment;
import ht.platform.rail.moncash.quarkus.MonCashPayouts;
import ht.platform.rail.moncash.quarkus.MonCashRail;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * The live MonCash rail. An authorization creates a MonCash payment whose orderId is our attempt id and answers
 * REDIRECT: the customer pays on MonCash's page. Only RetrieveOrderPayment says a payment happened. MonCash has no
 * refund call: a refund is a Transfert from the prefunded balance to the payer, whose reference is the refund id,
 * and it is looked up by that reference before it is ever sent (again): service-support's {@link MonCashPayouts}.
 */
@ApplicationScoped
public class MonCashProvider implements PaymentProvider {

    public static final String NAME = "moncash";

    @Inject
    MonCashRail rail;

    @Inject
    MonCashPayouts payouts;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<PaymentMethodInfo> methods() {
        return List.of(new PaymentMethodInfo("moncash", "wallet", "MonCash", List.of(Htg.CURRENCY)));
    }

    @Override
    public boolean supports(BigDecimal amount, String currency, boolean manualCapture) {
        return Htg.CURRENCY.equals(currency) && !manualCapture && Htg.fromCheckout(amount).isPresent();
    }

    @Override
    public boolean repeatsUnansweredCalls() {
        return false;
    }

    @Override
    public Uni<Boolean> requiresAction(String paymentMethod, String scenario) {
        return Uni.createFrom().item(false);
    }

    @Override
    public Uni<ProviderResult> authorize(String attemptId, String paymentMethod, BigDecimal amount, String currency,
                                         boolean capture, String scenario) {
        Optional<BigDecimal> htg = Htg.CURRENCY.equals(currency) && capture ? Htg.fromCheckout(amount) : Optional.empty();
        if (htg.isEmpty()) {
            return Uni.createFrom().item(ProviderResult.failed("amount_not_supported",
                    "MonCash takes HTG amounts of at most two decimals, captured at once"));
        }
        return rail.call(c -> c.createPayment(attemptId, htg.get()))
                .map(t -> ProviderResult.redirect(t.redirectUrl().toString(), t.expiresAt()))
                .onFailure().recoverWithItem(MonCashProvider::answer);
    }

    @Override
    public Uni<ProviderResult> lookup(String attemptId) {
        return rail.call(c -> c.retrieveOrderPayment(attemptId)).map(found -> found.filter(OrderPayment::successful)
                        .map(p -> ProviderResult.collected(p.cost(), p.transactionId())).orElseGet(ProviderResult::notFound))
                .onFailure().recoverWithItem(MonCashProvider::answer);
    }

    /** The transaction a customer's return names, as our orderId (= attempt id); empty when MonCash has none. */
    public Uni<Optional<String>> orderOfTransaction(String transactionId) {
        return rail.call(c -> c.retrieveTransactionPayment(transactionId)).map(p -> p.map(OrderPayment::reference));
    }

    @Override
    public Uni<ProviderResult> refund(String attemptId, String authorizationId, BigDecimal amount, String currency) {
        return payouts.lookup(attemptId).chain(sent -> {
            if (sent.isPresent()) {
                return Uni.createFrom().item(result(sent.get()));
            }
            return rail.call(c -> c.retrieveOrderPayment(authorizationId)).chain(payment -> {
                OrderPayment p = payment.filter(OrderPayment::successful).orElse(null);
                if (p == null || p.payer() == null) {
                    return Uni.createFrom().item(ProviderResult.failed("payment_not_found",
                            "MonCash shows no payment to return money for"));
                }
                if (p.cost() != null && amount.compareTo(p.cost()) > 0) {
                    return Uni.createFrom().item(ProviderResult.failed("exceeds_payment", "More than MonCash collected"));
                }
                return payouts.send(attemptId, amount, p.payer(), "Refund " + attemptId).map(MonCashProvider::result);
            });
        }).onFailure().recoverWithItem(e -> e instanceof MonCashException m && m.kind() == MonCashException.Kind.REFUSED
                && !"PrefundedTransactionStatus".equals(m.call())
                ? answer(e) // a step refused for good (the payment lookup): nothing was sent
                : ProviderResult.unknown(e instanceof MonCashException ? e.getMessage() : e.getClass().getSimpleName()));
    }

    private static ProviderResult result(MonCashPayouts.Outcome o) {
        return switch (o.result()) {
            case SENT -> ProviderResult.succeeded();
            case REFUSED -> ProviderResult.failed(o.reason(), o.detail());
            case UNKNOWN -> ProviderResult.unknown(o.detail());
        };
    }

    @Override
    public Uni<ProviderResult> capture(String attemptId, String authorizationId, BigDecimal amount) {
        return Uni.createFrom().item(ProviderResult.failed("not_supported", "MonCash captures at once"));
    }

    @Override
    public Uni<ProviderResult> release(String attemptId, String authorizationId) {
        return Uni.createFrom().item(ProviderResult.failed("not_supported", "MonCash captures at once"));
    }

    /** A refusal or a request never sent moved nothing; anything else may have. */
    static ProviderResult answer(Throwable e) {
        if (e instanceof MonCashException m && !m.ambiguous()) {
            return ProviderResult.failed(m.kind() == MonCashException.Kind.NOT_SENT ? "provider_unavailable" : "provider_declined",
                    m.getMessage());
        }
        return ProviderResult.unknown(e instanceof MonCashException ? e.getMessage() : e.getClass().getSimpleName());
    }
}
