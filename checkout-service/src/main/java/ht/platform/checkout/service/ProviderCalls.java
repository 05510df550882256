package ht.platform.checkout.service;

import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.checkout.provider.PaymentProvider;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.ProviderResult;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The provider call of a recorded attempt, made outside any transaction, and the recording of its answer (one
 * transaction under the intent's row lock). Used by the request flow and by the reconciler.
 */
@ApplicationScoped
public class ProviderCalls {

    @Inject
    PaymentRails rails;

    @Inject
    PaymentIntentStore intents;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    PaymentSettlement settlement;

    /** Makes (or repeats, with the same attempt id) the provider call of a recorded attempt, then records the answer. */
    public Uni<Void> run(PaymentAttempt attempt) {
        PaymentProvider provider = rails.provider(attempt.provider).orElse(null);
        if (provider == null) {
            return Uni.createFrom().voidItem();
        }
        return callFor(provider, attempt).chain(result -> recordResult(attempt.id, result));
    }

    /** Reconciler: asks the provider what became of an attempt whose answer was pending or ambiguous. */
    public Uni<Void> lookup(PaymentAttempt attempt) {
        PaymentProvider provider = rails.provider(attempt.provider).orElse(null);
        if (provider == null) {
            return Uni.createFrom().voidItem();
        }
        // NOT_FOUND: the rail never received the call; repeat it with the same attempt id (idempotent) to get an answer.
        // A rail that only knows completed payments (MonCash) answers NOT_FOUND as a fact: the settlement decides with it.
        return rails.call(provider, () -> provider.lookup(attempt.id)).chain(result -> result.status() == ProviderResult.Status.NOT_FOUND
                        && provider.repeatsUnansweredCalls()
                ? callFor(provider, attempt).chain(again -> recordResult(attempt.id, again))
                : recordResult(attempt.id, result));
    }

    private Uni<ProviderResult> callFor(PaymentProvider provider, PaymentAttempt a) {
        return switch (a.kind) {
            case "authorize" -> intents.read(a.paymentIntentId)
                    .chain(pi -> rails.call(provider, () -> provider.authorize(a.id, a.paymentMethod, a.amount, pi.currency,
                            "automatic".equals(pi.captureMethod), a.scenario)));
            default -> Panache.withSession(() -> attempts.authorization(a.paymentIntentId)
                            .chain(auth -> intents.byId(a.paymentIntentId).map(pi -> new Object[] {auth, pi})))
                    .chain(pair -> {
                        PaymentAttempt auth = (PaymentAttempt) pair[0];
                        PaymentIntent pi = (PaymentIntent) pair[1];
                        String authId = a.reversesAttemptId != null ? a.reversesAttemptId : auth == null ? a.paymentIntentId : auth.id;
                        return rails.call(provider, () -> switch (a.kind) {
                            case "capture" -> provider.capture(a.id, authId, a.amount);
                            case "release" -> provider.release(a.id, authId);
                            default -> provider.refund(a.id, authId, a.amount, pi.currency);
                        });
                    });
        };
    }

    /** Records a provider answer for an attempt and moves the intent accordingly. */
    public Uni<Void> recordResult(String attemptId, ProviderResult result) {
        return recordResult(attemptId, result, false);
    }

    /** {@code customerPaid}: the customer came back from the rail's page saying they paid (not a proof of anything). */
    public Uni<Void> recordResult(String attemptId, ProviderResult result, boolean customerPaid) {
        return Panache.withTransaction(() -> attempts.byId(attemptId).chain(a ->
                transitions.lock(a.paymentIntentId).chain(pi -> attempts.lock(attemptId)
                        .chain(attempt -> settlement.apply(attempt, pi, result, customerPaid))))).replaceWithVoid();
    }
}
