package ht.platform.support.outbox;

import ht.platform.webhooks.retry.RetrySchedule;
import ht.platform.webhooks.signing.SignatureScheme;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * What one service decides about its webhooks, as values; the engine ({@link OutboxWriter}, {@link DeliveryRunner},
 * {@link DeliveryStore}, {@link DeliveryLog}) does the rest the same way for all, over the one outbox schema
 * ({@code db/outbox}) in the service's database schema, its webhook addresses in the table {@code destinations}.
 */
public abstract class DeliveryPolicy {

    /**
     * @param name      short stable name, used in metrics and logs (e.g. "wallet")
     * @param schema    the service's database schema, which holds its outbox tables and its destinations
     * @param headers   the service's own headers beside the signature, Content-Type and User-Agent
     * @param pauseAfter the consecutive failed attempts that pause a destination (its deliveries are held), if any
     * @param words     the service's words for the delivery states, used only at its JSON and page edge
     */
    public record Rules(String name, String schema, Ordering ordering, RetrySchedule schedule, SignatureScheme scheme,
                        Function<ClaimedDelivery, Map<String, String>> headers, OptionalInt pauseAfter,
                        StatusWords words) {

        public Rules {
            Objects.requireNonNull(name, "name");
            if (schema == null || !schema.matches("[a-z_][a-z0-9_]*")) {
                throw new IllegalArgumentException("schema must be a plain lower-case identifier: " + schema);
            }
            Objects.requireNonNull(ordering, "ordering");
            Objects.requireNonNull(schedule, "schedule");
            Objects.requireNonNull(scheme, "scheme");
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(pauseAfter, "pauseAfter");
            Objects.requireNonNull(words, "words");
        }
    }

    private final Rules rules;

    protected DeliveryPolicy(Rules rules) {
        this.rules = rules;
    }

    public String name() {
        return rules.name();
    }

    /** The database schema holding this outbox's tables and its destinations. */
    public String schema() {
        return rules.schema();
    }

    /** The LISTEN/NOTIFY channel that wakes this outbox's loop after a commit. */
    public String channel() {
        return rules.schema() + "_outbox";
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

    public OptionalInt pauseAfter() {
        return rules.pauseAfter();
    }

    public StatusWords words() {
        return rules.words();
    }

    String events() {
        return rules.schema() + ".outbox_events";
    }

    String deliveries() {
        return rules.schema() + ".outbox_deliveries";
    }

    String attempts() {
        return rules.schema() + ".outbox_attempts";
    }

    public String destinations() {
        return rules.schema() + ".destinations";
    }

    String recoveries() {
        return rules.schema() + ".outbox_recoveries";
    }
}
