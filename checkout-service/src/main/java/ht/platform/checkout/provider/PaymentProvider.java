package ht.platform.checkout.provider;

import io.smallrye.mutiny.Uni;

import java.math.BigDecimal;
import java.util.List;

/**
 * A payment rail. Every money-moving call carries our attempt id, which is also the provider's idempotency
 * key: repeating a call with the same id never moves money twice, and {@link #lookup} answers what became of it.
 * Implementations never touch our database; callers never hold a database transaction open across a call.
 */
public interface PaymentProvider {

    String name();

    /** The methods this rail offers (id, type, display name, currencies). */
    List<PaymentMethodInfo> methods();

    /** Whether this rail can carry {@code amount} in {@code currency} exactly, with the capture method asked for. */
    default boolean supports(BigDecimal amount, String currency, boolean manualCapture) {
        return true;
    }

    /**
     * Whether a call the rail has no trace of (lookup NOT_FOUND) may be repeated with the same attempt id. A rail whose
     * lookup answers only about completed payments (MonCash) says no: NOT_FOUND is then its answer, not an absence.
     */
    default boolean repeatsUnansweredCalls() {
        return true;
    }

    /** Whether the customer must pass an extra verification before authorization (moves no money). */
    Uni<Boolean> requiresAction(String paymentMethod, String scenario);

    /** Authorizes (and with {@code capture} also captures) {@code amount}. */
    Uni<ProviderResult> authorize(String attemptId, String paymentMethod, BigDecimal amount, String currency,
                                  boolean capture, String scenario);

    /** Captures part or all of an authorization made by {@code authorizationId}. */
    Uni<ProviderResult> capture(String attemptId, String authorizationId, BigDecimal amount);

    /** Releases an uncaptured authorization. */
    Uni<ProviderResult> release(String attemptId, String authorizationId);

    /** Returns money collected by {@code authorizationId} to the customer. */
    Uni<ProviderResult> refund(String attemptId, String authorizationId, BigDecimal amount, String currency);

    /** What became of the call made with {@code attemptId} (NOT_FOUND when the provider never received it). */
    Uni<ProviderResult> lookup(String attemptId);
}
