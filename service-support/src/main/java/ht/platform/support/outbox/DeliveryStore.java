package ht.platform.support.outbox;

import io.smallrye.mutiny.Uni;

import java.util.List;

/**
 * A service's outbox: it claims due deliveries ({@code FOR UPDATE SKIP LOCKED}, setting a lease longer than
 * the send timeout, so replicas never send the same attempt at once) and records each attempt by its own
 * retry, dead-letter and pause rules.
 */
public interface DeliveryStore {

    /** Short stable name, used in metrics and logs (e.g. "wallet"). */
    String name();

    Uni<List<PreparedDelivery>> claimDue(int limit);

    Uni<Void> recordAttempt(PreparedDelivery delivery, SendResult result);
}
