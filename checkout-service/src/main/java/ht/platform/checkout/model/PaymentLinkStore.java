package ht.platform.checkout.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

/**
 * Every query of payment links. Methods named {@code read…} and {@code save…} open their own session or
 * transaction; the others run inside the caller's transaction.
 */
@ApplicationScoped
public class PaymentLinkStore {

    public Uni<PaymentLink> save(PaymentLink link) {
        return Panache.withTransaction(link::persist).replaceWith(link);
    }

    /** The link, or null. */
    public Uni<PaymentLink> read(String id) {
        return Panache.withSession(() -> PaymentLink.<PaymentLink>findById(id));
    }

    public Uni<PaymentLink> lock(String id) {
        return PaymentLink.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }
}
