package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.util.List;

/**
 * Every query of MonCash orders. Methods named {@code read…} open their own session; the others run inside the
 * caller's session or transaction.
 */
@ApplicationScoped
public class MonCashOrderStore {

    public Uni<MonCashOrder> byId(String id) {
        return MonCashOrder.findById(id);
    }

    public Uni<MonCashOrder> lock(String id) {
        return MonCashOrder.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    public Uni<MonCashOrder> persist(MonCashOrder order) {
        return order.persist();
    }

    /** The orders of a payment, newest first. */
    public Uni<List<MonCashOrder>> ofPayment(String paymentId) {
        return MonCashOrder.list("paymentId = ?1 order by createdAt desc", paymentId);
    }

    public Uni<List<MonCashOrder>> readOfPayment(String paymentId) {
        return Panache.withSession(() -> ofPayment(paymentId));
    }

    /** Whether an order of the payment is still open (MonCash may yet show it paid). */
    public Uni<Boolean> anyOpen(String paymentId) {
        return MonCashOrder.count("paymentId = ?1 and settledAt is null", paymentId).map(open -> open > 0);
    }

    /** Orders not settled yet, oldest first, at most {@code limit}. */
    public Uni<List<MonCashOrder>> readOpen(int limit) {
        return Panache.withSession(() -> MonCashOrder.<MonCashOrder>find("settledAt is null order by createdAt")
                .range(0, limit - 1).list());
    }

    /** Orders whose money is still to be given back, oldest settlement first, at most {@code limit}. */
    public Uni<List<MonCashOrder>> readToGiveBack(int limit) {
        return Panache.withSession(() -> MonCashOrder.<MonCashOrder>find("givenBack = 'pending' order by settledAt")
                .range(0, limit - 1).list());
    }
}
