package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.ProviderResult;
import ht.platform.checkout.provider.SimulatorProvider;
import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import static ht.platform.checkout.service.PaymentIntentStatus.*;
import static ht.platform.checkout.service.PaymentIntentTransitions.unexpected;

/**
 * The steps of the hosted payment page (and of the test helper that stands in for the customer): choosing a
 * payment method, the extra verification a method may ask for, and the authorization that follows.
 */
@ApplicationScoped
public class HostedPayment {

    @Inject
    Clock clock;

    @Inject
    PaymentRails rails;

    @Inject
    PaymentIntentStore intents;

    @Inject
    PaymentAttempts attempts;

    @Inject
    ProviderCalls calls;

    @Inject
    PaymentIntentTransitions transitions;

    /** The intent behind a checkout session, or null. */
    public Uni<PaymentIntent> bySession(String sessionId) {
        return intents.readBySession(sessionId);
    }

    /** The customer (or a test helper) pays with {@code method}; in test mode {@code scenario} picks the outcome. */
    public Uni<PaymentIntent> pay(String intentId, String method, String scenario) {
        return intents.read(intentId).chain(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + intentId);
            }
            if ("test".equals(pi.mode)) {
                if (scenario == null || !SimulatorProvider.SCENARIOS.contains(scenario)) {
                    throw ApiException.invalid("outcome", "outcome must be one of " + SimulatorProvider.SCENARIOS);
                }
            }
            PaymentRails.Method m = rails.method(pi.mode, method, pi.currency).orElseThrow(
                    () -> ApiException.invalid("payment_method", "payment_method '" + method + "' is not offered for this payment"));
            if (!m.available()) {
                throw new ApiException(409, "PAYMENT_METHOD_UNAVAILABLE", "This payment method is unavailable right now; choose another", "payment_method");
            }
            if (!m.provider().supports(pi.amount, pi.currency, "manual".equals(pi.captureMethod))) {
                throw ApiException.invalid("payment_method", "payment_method '" + method + "' cannot carry this payment's amount,"
                        + " currency or capture method");
            }
            boolean fromAction = pi.status.equals(REQUIRES_ACTION);
            Uni<Boolean> needsAction = fromAction ? Uni.createFrom().item(false)
                    : rails.call(m.provider(), () -> m.provider().requiresAction(method, scenario)
                            .map(b -> b ? ProviderResult.pending() : ProviderResult.succeeded()))
                    .map(r -> r.status() == ProviderResult.Status.PENDING);
            return needsAction.chain(action -> action
                    ? Panache.withTransaction(() -> transitions.lock(intentId).chain(locked -> {
                        checkPayable(locked, false);
                        locked.paymentMethod = method;
                        return transitions.move(locked, REQUIRES_ACTION, null);
                    }))
                    : startAuthorization(intentId, m, "requires_action".equals(scenario) ? "succeeded" : scenario)
                            .chain(calls::run).chain(() -> intents.read(intentId)));
        });
    }

    /** The customer completes (approve) or fails (decline) the extra verification. */
    public Uni<PaymentIntent> completeAction(String intentId, boolean approved, String scenario) {
        return intents.read(intentId).chain(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + intentId);
            }
            if (!approved) {
                return Panache.withTransaction(() -> transitions.lock(intentId).chain(locked -> {
                    if (!locked.status.equals(REQUIRES_ACTION)) {
                        throw unexpected(locked, "complete the verification of", null);
                    }
                    locked.lastErrorCode = "authentication_failed";
                    locked.lastErrorMessage = "The customer did not complete the verification";
                    return transitions.move(locked, FAILED, EventTypes.PI_FAILED);
                }));
            }
            if (!pi.status.equals(REQUIRES_ACTION)) {
                throw unexpected(pi, "complete the verification of", null);
            }
            return pay(intentId, pi.paymentMethod, scenario == null && "test".equals(pi.mode) ? "succeeded" : scenario);
        });
    }

    private void checkPayable(PaymentIntent pi, boolean allowAction) {
        boolean ok = pi.status.equals(REQUIRES_PAYMENT_METHOD) || (allowAction && pi.status.equals(REQUIRES_ACTION));
        if (!ok) {
            throw unexpected(pi, "pay", null);
        }
        if (!pi.expiresAt.isAfter(clock.instant())) {
            throw unexpected(pi, "pay", "it has expired");
        }
    }

    private Uni<PaymentAttempt> startAuthorization(String intentId, PaymentRails.Method m, String scenario) {
        return Panache.withTransaction(() -> transitions.lock(intentId).chain(pi -> {
            checkPayable(pi, true);
            pi.paymentMethod = m.info().id();
            pi.lastErrorCode = null;
            pi.lastErrorMessage = null;
            return transitions.move(pi, PROCESSING, EventTypes.PI_PROCESSING)
                    .chain(p -> attempts.record(p, "authorize", m.info().id(), p.amount, scenario));
        }));
    }
}
