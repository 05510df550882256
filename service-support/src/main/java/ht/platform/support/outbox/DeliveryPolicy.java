package ht.platform.support.outbox;

import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;

import java.util.Map;
import java.util.Optional;

/**
 * What one service decides about its webhooks; the engine ({@link OutboxWriter}, {@link DeliveryRunner},
 * {@link DeliveryStore}) does the rest the same way for all. SQL fragments are constants of the service.
 */
public interface DeliveryPolicy {

    /** Short stable name, used in metrics and logs (e.g. "wallet"). */
    String name();

    /** The LISTEN/NOTIFY channel that wakes this outbox's loop after a commit. */
    String channel();

    OutboxTables tables();

    Ordering ordering();

    RetrySchedule schedule();

    SignatureScheme scheme();

    /** The service's own headers beside the signature, Content-Type and User-Agent (event id, type...). */
    Map<String, String> headers(ClaimedDelivery delivery);

    /** SQL over alias {@code t}: this destination receives deliveries now (a paused or deleted one does not). */
    String destinationOpen();

    /**
     * SELECT list over {@code t} (the destination) and {@code ev} (the event) naming {@code url, secret,
     * previous_secret, previous_secret_expires_at, secret_bound_to}: where to send, the sealed signing secrets and
     * what they are bound to.
     */
    String destinationColumns();

    /**
     * SET items for the delivery row {@code d} after an attempt, beside status, next_attempt_at and the lease,
     * over {@code r} ({@code r.ok, r.n, r.code, r.error, r.at, r.status}); empty for none.
     */
    String afterAttempt();

    /**
     * An optional UPDATE of the destination after attempts (the pause rule): SQL of the form
     * {@code UPDATE <destinations> t SET ... FROM r WHERE t.id = r.dest RETURNING t.id, (<open>) AS open}.
     */
    default Optional<String> destinationAfterAttempt() {
        return Optional.empty();
    }
}
