package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.model.Money;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.ProviderResult;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;

import static ht.platform.checkout.service.PaymentIntentStatus.*;

/**
 * What a rail's answer does to an attempt and its payment intent (inside the caller's transaction, both rows
 * locked): confirmation of an authorization, a capture, or a give-back of money that moved for a payment that can
 * no longer complete.
 */
@ApplicationScoped
public class PaymentSettlement {

    private static final Duration RAIL_CLOCK_MARGIN = Duration.ofMinutes(5);

    @Inject
    Clock clock;

    @Inject
    PaymentRails rails;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    PaymentAttempts attempts;

    Uni<?> apply(PaymentAttempt a, PaymentIntent pi, ProviderResult r0, boolean customerPaid) {
        if (a.status.equals("succeeded") || a.status.equals("failed")) {
            return Uni.createFrom().voidItem(); // already concluded
        }
        a.updatedAt = transitions.now();
        ProviderResult r = r0;
        if (a.kind.equals("authorize") && rails.provider(a.provider).map(p -> !p.repeatsUnansweredCalls()).orElse(false)) {
            Uni<?> redirectStep = applyRedirectRail(a, pi, r0, customerPaid);
            if (redirectStep != null) {
                return redirectStep;
            }
            r = concludeRedirectRail(a, r0);
        }
        switch (r.status()) {
            case PENDING -> a.status = "pending";
            case UNKNOWN, NOT_FOUND -> a.status = a.status.equals("pending") ? "pending" : "unknown";
            case SUCCEEDED -> a.status = "succeeded";
            case FAILED -> {
                a.status = "failed";
                a.failureCode = r.failureCode();
            }
        }
        return switch (a.kind) {
            case "authorize" -> applyAuthorization(a, pi, r);
            case "capture" -> {
                if (r.status() == ProviderResult.Status.SUCCEEDED && pi.status.equals(REQUIRES_CAPTURE)) {
                    pi.amountReceived = a.amount;
                    yield transitions.move(pi, SUCCEEDED, EventTypes.PI_SUCCEEDED);
                }
                yield Uni.createFrom().voidItem();
            }
            default -> Uni.createFrom().voidItem(); // release, reversal: only the attempt row changes
        };
    }

    /**
     * A rail whose customer pays on the rail's own page (MonCash). Handles what only such a rail answers and returns
     * null when the ordinary rules apply: REDIRECT (the customer is sent there), NOT_FOUND while the customer can
     * still pay, and a collected amount that is not the amount expected (never credited; given back).
     */
    private Uni<?> applyRedirectRail(PaymentAttempt a, PaymentIntent pi, ProviderResult r, boolean customerPaid) {
        switch (r.status()) {
            case REDIRECT -> {
                a.status = "pending";
                a.redirectUrl = r.redirectUrl();
                a.redirectExpiresAt = r.redirectExpiresAt() != null ? r.redirectExpiresAt() : transitions.now().plus(Duration.ofMinutes(10));
                return pi.status.equals(PROCESSING) ? transitions.move(pi, REQUIRES_ACTION, null) : Uni.createFrom().voidItem();
            }
            case NOT_FOUND -> {
                if (a.redirectUrl == null || !payableAtRail(a)) {
                    return null; // concluded as failed below
                }
                a.status = "pending"; // the customer can still pay on the rail's page
                if (pi.status.equals(PROCESSING)) {
                    return transitions.move(pi, customerPaid ? PROVIDER_PENDING : REQUIRES_ACTION, null);
                }
                return Uni.createFrom().voidItem();
            }
            case SUCCEEDED -> {
                a.providerReference = r.providerReference();
                if (r.reportedAmount() != null && r.reportedAmount().compareTo(a.amount) != 0) {
                    a.status = "failed";
                    a.failureCode = "amount_mismatch";
                    Uni<?> giveBack = attempts.record(pi, "reversal", a.paymentMethod, r.reportedAmount(), null, a.id);
                    if (pi.status.equals(PROCESSING) || pi.status.equals(PROVIDER_PENDING) || pi.status.equals(PROVIDER_UNKNOWN)) {
                        pi.lastErrorCode = "amount_mismatch";
                        pi.lastErrorMessage = "The payment rail collected " + Money.text(r.reportedAmount()) + " instead of "
                                + Money.text(a.amount) + "; it is given back";
                        return giveBack.chain(() -> transitions.move(pi, FAILED, EventTypes.PI_FAILED));
                    }
                    return giveBack;
                }
                if (pi.status.equals(REQUIRES_ACTION)) {
                    // paid on the rail's page without coming back: the payment completes all the same
                    a.status = "succeeded";
                    return transitions.move(pi, PROCESSING, null).chain(p -> applyAuthorization(a, p, r));
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** The rail's NOT_FOUND once nobody can pay any more: it did not happen. */
    private ProviderResult concludeRedirectRail(PaymentAttempt a, ProviderResult r) {
        if (r.status() != ProviderResult.Status.NOT_FOUND) {
            return r;
        }
        return a.redirectUrl == null
                ? ProviderResult.failed("payment_not_created", "The payment rail shows no payment; nothing was debited")
                : ProviderResult.failed("payment_not_completed", "The customer did not pay before the payment page expired; nothing was debited");
    }

    /** The rail's page still takes the payment (with a margin for clocks that disagree). */
    private boolean payableAtRail(PaymentAttempt a) {
        return a.redirectExpiresAt != null && clock.instant().isBefore(a.redirectExpiresAt.plus(RAIL_CLOCK_MARGIN));
    }

    private Uni<?> applyAuthorization(PaymentAttempt a, PaymentIntent pi, ProviderResult r) {
        boolean inFlight = pi.status.equals(PROCESSING) || pi.status.equals(PROVIDER_PENDING) || pi.status.equals(PROVIDER_UNKNOWN);
        switch (r.status()) {
            case SUCCEEDED -> {
                if (!inFlight) {
                    // money moved for a payment that can no longer complete: give it back
                    return attempts.record(pi, "reversal", a.paymentMethod, a.amount, null, a.id);
                }
                if ("manual".equals(pi.captureMethod)) {
                    return transitions.move(pi, REQUIRES_CAPTURE, null);
                }
                pi.amountReceived = pi.amount;
                return transitions.move(pi, SUCCEEDED, EventTypes.PI_SUCCEEDED);
            }
            case FAILED -> {
                if (!inFlight) {
                    return Uni.createFrom().voidItem();
                }
                pi.lastErrorCode = r.failureCode() == null ? "payment_failed" : r.failureCode();
                pi.lastErrorMessage = r.failureMessage();
                return transitions.move(pi, FAILED, EventTypes.PI_FAILED);
            }
            case PENDING -> {
                return pi.status.equals(PROCESSING) ? transitions.move(pi, PROVIDER_PENDING, null) : Uni.createFrom().voidItem();
            }
            default -> {
                // ambiguous: money may have moved; never concluded as failed here
                return pi.status.equals(PROCESSING) ? transitions.move(pi, PROVIDER_UNKNOWN, null) : Uni.createFrom().voidItem();
            }
        }
    }
}
