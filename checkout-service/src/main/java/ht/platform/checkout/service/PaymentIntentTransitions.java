package ht.platform.checkout.service;

import ht.platform.checkout.events.EventOutbox;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.DatabaseTime;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;

import static ht.platform.checkout.service.PaymentIntentStatus.canMove;

/**
 * The payment intent's state graph: every transition is taken under the intent's row lock, checked against the
 * graph, and writes its event in the same transaction.
 */
@ApplicationScoped
public class PaymentIntentTransitions {

    public static final String UNEXPECTED_STATE = "PAYMENT_INTENT_UNEXPECTED_STATE";

    @Inject
    Clock clock;

    @Inject
    EventOutbox outbox;

    @Inject
    PaymentIntentStore intents;

    /** The intent under a row lock (inside the caller's transaction), or 404. */
    public Uni<PaymentIntent> lock(String id) {
        return intents.lock(id);
    }

    /** A checked transition (and its event, in the same transaction). */
    public Uni<PaymentIntent> move(PaymentIntent pi, String to, String eventType) {
        if (!pi.status.equals(to) && !canMove(pi.status, to)) {
            throw unexpected(pi, "move to " + to, null);
        }
        pi.status = to;
        pi.updatedAt = now();
        return eventType == null ? Uni.createFrom().item(pi)
                : intents.flush().chain(() -> outbox.paymentIntentEvent(pi, eventType)).replaceWith(pi);
    }

    public static PaymentIntent owned(ApiPrincipal caller, PaymentIntent pi, String id) {
        if (pi == null || !pi.applicationId.equals(caller.ownerId()) || !pi.mode.equals(caller.mode())) {
            throw ApiException.notFound("Payment intent " + id);
        }
        return pi;
    }

    public static ApiException unexpected(PaymentIntent pi, String action, String why) {
        return new ApiException(409, UNEXPECTED_STATE, "Cannot " + action + " a payment intent in status '" + pi.status + "'"
                + (why == null ? "" : ": " + why));
    }

    /** The clock's instant at the database's precision. */
    public Instant now() {
        return DatabaseTime.now(clock);
    }
}
