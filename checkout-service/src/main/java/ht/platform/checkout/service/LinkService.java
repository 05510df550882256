package ht.platform.checkout.service;

import ht.platform.checkout.model.PaymentLink;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Shareable payment links. */
@ApplicationScoped
public class LinkService {

    @Inject
    PaymentService payments;

    public Uni<PaymentLink> create(ApiPrincipal caller, String amount, String currency, String description,
                                   String externalReference, String returnUrl) {
        PaymentService.NewIntent in = payments.validate(caller.mode(), amount, currency, description, externalReference,
                returnUrl, null, null);
        PaymentLink link = new PaymentLink();
        link.id = Ids.ulid("pay_pl_", payments.clock());
        link.applicationId = caller.ownerId();
        link.mode = caller.mode();
        link.amount = in.amount();
        link.currency = in.currency();
        link.description = in.description();
        link.externalReference = in.externalReference();
        link.returnUrl = in.returnUrl();
        link.active = true;
        link.createdAt = payments.now();
        return Panache.withTransaction(link::persist).replaceWith(link);
    }

    public Uni<PaymentLink> get(ApiPrincipal caller, String id) {
        return Panache.withSession(() -> PaymentLink.<PaymentLink>findById(id)).map(l -> {
            if (l == null || !l.applicationId.equals(caller.ownerId()) || !l.mode.equals(caller.mode())) {
                throw ApiException.notFound("Payment link " + id);
            }
            return l;
        });
    }
}
