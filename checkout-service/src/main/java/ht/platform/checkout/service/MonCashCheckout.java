package ht.platform.checkout.service;

import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.MonCashProvider;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.Optional;

import static ht.platform.checkout.service.PaymentIntentStatus.PROCESSING;
import static ht.platform.checkout.service.PaymentIntentStatus.REQUIRES_ACTION;

/**
 * The customer's trip to MonCash and back. MonCash returns the customer to the business account's return URL with a
 * {@code transactionId} only; we find our order behind it (or, failing that, the checkout session the browser came
 * from) and then ask RetrieveOrderPayment: the return itself proves nothing.
 */
@ApplicationScoped
public class MonCashCheckout {

    @Inject
    PaymentIntentStore intents;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    ProviderCalls calls;

    @Inject
    PaymentRails rails;

    @Inject
    MonCashProvider moncash;

    @Inject
    Clock clock;

    /** The MonCash page where the customer pays this intent right now, or null when there is none. */
    public Uni<String> customerRedirect(String intentId) {
        return attempts.readLatestRedirect(intentId, MonCashProvider.NAME)
                .map(a -> a != null && a.status.equals("pending") && a.redirectExpiresAt.isAfter(clock.instant())
                        ? a.redirectUrl : null);
    }

    /** The customer is back from MonCash: confirm with RetrieveOrderPayment and answer the intent as it now stands. */
    public Uni<PaymentIntent> customerReturned(String transactionId, String sessionId) {
        Uni<PaymentAttempt> byTransaction = transactionId == null || transactionId.isBlank() || transactionId.length() > 64
                ? Uni.createFrom().nullItem()
                : moncash.orderOfTransaction(transactionId).onFailure().recoverWithItem(Optional.empty())
                        .chain(order -> order.isEmpty() ? Uni.createFrom().<PaymentAttempt>nullItem()
                                : attempts.read(order.get()));
        return byTransaction.chain(a -> a != null && a.kind.equals("authorize") && a.provider.equals(MonCashProvider.NAME)
                        ? Uni.createFrom().item(a) : bySession(sessionId))
                .chain(a -> {
                    if (a == null) {
                        throw ApiException.notFound("MonCash payment");
                    }
                    return confirm(a, transactionId != null && !transactionId.isBlank());
                });
    }

    private Uni<PaymentAttempt> bySession(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) {
            return Uni.createFrom().nullItem();
        }
        return intents.readBySession(sessionId).chain(pi -> pi == null ? Uni.createFrom().<PaymentAttempt>nullItem()
                : attempts.readLatestRedirect(pi.id, MonCashProvider.NAME));
    }

    private Uni<PaymentIntent> confirm(PaymentAttempt a, boolean customerSaysPaid) {
        return Panache.withTransaction(() -> transitions.lock(a.paymentIntentId).chain(pi -> pi.status.equals(REQUIRES_ACTION)
                        ? transitions.move(pi, PROCESSING, null) : Uni.createFrom().item(pi)))
                .chain(() -> rails.call(moncash, () -> moncash.lookup(a.id)))
                .chain(r -> calls.recordResult(a.id, r, customerSaysPaid))
                .chain(() -> intents.read(a.paymentIntentId));
    }
}
