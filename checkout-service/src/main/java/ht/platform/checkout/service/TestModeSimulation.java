package ht.platform.checkout.service;

import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.SimulatorProvider;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import static ht.platform.checkout.service.PaymentIntentTransitions.UNEXPECTED_STATE;

/** Test mode only: a test key plays the customer on the hosted page, or the test rail concluding a pending payment. */
@ApplicationScoped
public class TestModeSimulation {

    @Inject
    PaymentIntentService payments;

    @Inject
    HostedPayment hosted;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    SimulatorProvider simulator;

    @Inject
    Reconciler reconciler;

    /** Pays the caller's intent with {@code method}; {@code outcome} picks what the simulator answers. */
    public Uni<PaymentIntent> pay(ApiPrincipal caller, String id, String method, String outcome) {
        return payments.get(caller, id).chain(pi -> hosted.pay(pi.id, method, outcome));
    }

    /** The simulator concludes the intent's pending authorization; the service then settles it by asking the rail. */
    public Uni<PaymentIntent> settle(ApiPrincipal caller, String id, boolean succeeded) {
        return payments.get(caller, id).<PaymentAttempt>chain(pi -> {
            if (!pi.status.equals(PaymentIntentStatus.PROVIDER_PENDING)) {
                throw new ApiException(409, UNEXPECTED_STATE, "The payment intent is not provider_pending");
            }
            return attempts.readPendingAuthorization(id);
        }).chain(attempt -> (attempt == null ? Uni.createFrom().item(false) : simulator.settle(attempt.id, succeeded))
                .chain(settled -> {
                    if (!settled) {
                        throw new ApiException(409, UNEXPECTED_STATE, "No pending provider operation for this payment intent");
                    }
                    return reconciler.settle(attempt);
                })).chain(() -> payments.get(caller, id));
    }
}
