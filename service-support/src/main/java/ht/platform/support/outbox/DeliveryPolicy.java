package ht.platform.support.outbox;

import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one service decides about its webhooks, as values; the engine ({@link OutboxWriter}, {@link DeliveryRunner},
 * {@link DeliveryStore}) does the rest the same way for all. A service's policy is a bean that passes its rules to
 * this constructor. SQL fragments are constants of the service, never input.
 */
public abstract class DeliveryPolicy {

    /** The destination columns of a service whose destination row holds one address and its secrets. */
    public static final String ADDRESS_COLUMNS = "t.url AS url, t.secret_sealed AS secret, t.previous_secret_sealed AS previous_secret,"
            + " t.previous_secret_expires_at AS previous_secret_expires_at, t.id AS secret_bound_to";

    /**
     * @param name               short stable name, used in metrics and logs (e.g. "wallet")
     * @param channel            the LISTEN/NOTIFY channel that wakes this outbox's loop after a commit
     * @param headers            the service's own headers beside the signature, Content-Type and User-Agent
     * @param destinationOpen    SQL over alias {@code t}: this destination receives deliveries now (a paused or
     *                           deleted one does not)
     * @param destinationColumns SELECT list over {@code t} (the destination) and {@code ev} (the event) naming
     *                           {@code url, secret, previous_secret, previous_secret_expires_at, secret_bound_to}
     * @param afterAttempt       SET items for the delivery row {@code d} after an attempt, beside status,
     *                           next_attempt_at and the lease, over {@code r} ({@code r.ok, r.n, r.code, r.error,
     *                           r.at, r.status}); empty for none
     * @param pauseRule          SET items for the destination {@code t} after attempts over {@code r} (the pause
     *                           rule), or empty
     */
    public record Rules(String name, String channel, OutboxTables tables, Ordering ordering, RetrySchedule schedule,
                        SignatureScheme scheme, Function<ClaimedDelivery, Map<String, String>> headers,
                        String destinationOpen, String destinationColumns, String afterAttempt,
                        Optional<String> pauseRule) {

        public Rules {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(tables, "tables");
            Objects.requireNonNull(ordering, "ordering");
            Objects.requireNonNull(schedule, "schedule");
            Objects.requireNonNull(scheme, "scheme");
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(pauseRule, "pauseRule");
        }
    }

    private final Rules rules;

    protected DeliveryPolicy(Rules rules) {
        this.rules = rules;
    }

    public String name() {
        return rules.name();
    }

    public String channel() {
        return rules.channel();
    }

    public OutboxTables tables() {
        return rules.tables();
    }

    public Ordering ordering() {
        return rules.ordering();
    }

    public RetrySchedule schedule() {
        return rules.schedule();
    }

    public SignatureScheme scheme() {
        return rules.scheme();
    }

    public Map<String, String> headers(ClaimedDelivery delivery) {
        return rules.headers().apply(delivery);
    }

    public String destinationOpen() {
        return rules.destinationOpen();
    }

    public String destinationColumns() {
        return rules.destinationColumns();
    }

    public String afterAttempt() {
        return rules.afterAttempt();
    }

    /** The SET items of the pause rule ({@code UPDATE <destinations> t SET ...} after attempts), if the service has one. */
    public Optional<String> destinationAfterAttempt() {
        return rules.pauseRule();
    }
}
