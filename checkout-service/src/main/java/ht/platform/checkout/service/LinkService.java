package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentLink;
import ht.platform.checkout.model.PaymentLinkStore;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Set;

/**
 * Shareable payment links. Visiting a link creates nothing; the customer's action (a POST from the link's page) opens a
 * payment intent, and the same browser session is sent back to its intent while that intent is still open.
 */
@ApplicationScoped
public class LinkService {

    /** An intent in these statuses is still the customer's payment in progress; any other status is over. */
    private static final Set<String> OPEN = Set.of(PaymentIntentStatus.REQUIRES_PAYMENT_METHOD, PaymentIntentStatus.REQUIRES_ACTION,
            PaymentIntentStatus.PROCESSING, PaymentIntentStatus.PROVIDER_PENDING, PaymentIntentStatus.PROVIDER_UNKNOWN);

    @Inject
    Clock clock;

    @Inject
    PaymentIntentService payments;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    PaymentLinkStore links;

    @Inject
    PaymentIntentStore intents;

    public Uni<PaymentLink> create(ApiPrincipal caller, String amount, String currency, String description,
                                   String externalReference, String returnUrl) {
        PaymentIntentService.NewIntent in = payments.validate(caller.mode(), amount, currency, description, externalReference,
                returnUrl, null, null);
        PaymentLink link = new PaymentLink();
        link.id = Ids.ulid("pay_pl_", clock);
        link.applicationId = caller.ownerId();
        link.mode = caller.mode();
        link.amount = in.amount();
        link.currency = in.currency();
        link.description = in.description();
        link.externalReference = in.externalReference();
        link.returnUrl = in.returnUrl();
        link.active = true;
        link.createdAt = transitions.now();
        return links.save(link);
    }

    public Uni<PaymentLink> get(ApiPrincipal caller, String id) {
        return links.read(id).map(l -> {
            if (l == null || !l.applicationId.equals(caller.ownerId()) || !l.mode.equals(caller.mode())) {
                throw ApiException.notFound("Payment link " + id);
            }
            return l;
        });
    }

    /** An active link as its page shows it (no key: the link id is the bearer); 404 otherwise. Reads only. */
    public Uni<PaymentLink> visible(String linkId) {
        return links.read(linkId).map(l -> {
            if (l == null || !l.active) {
                throw ApiException.notFound("Payment link " + linkId);
            }
            return l;
        });
    }

    /**
     * The customer acts on a link: the intent this browser session opened ({@code previousSession}, from its cookie)
     * when it belongs to this link and is still open, else a new intent. The link row is locked, so two clicks of one
     * session cannot both create.
     */
    public Uni<PaymentIntent> open(String linkId, String previousSession) {
        return Panache.withTransaction(() -> links.lock(linkId).chain(link -> {
            if (link == null || !link.active) {
                throw ApiException.notFound("Payment link " + linkId);
            }
            Uni<PaymentIntent> previous = previousSession == null ? Uni.createFrom().nullItem()
                    : intents.bySession(previousSession);
            return previous.chain(pi -> stillOpen(pi, linkId) ? Uni.createFrom().item(pi)
                    : payments.insert(link.applicationId, link.mode, new PaymentIntentService.NewIntent(link.amount, link.currency,
                            link.description, link.externalReference, link.returnUrl, "automatic", 3600), link.id));
        }));
    }

    private boolean stillOpen(PaymentIntent pi, String linkId) {
        if (pi == null || !linkId.equals(pi.paymentLinkId) || !OPEN.contains(pi.status)) {
            return false;
        }
        return !PaymentIntentStatus.REQUIRES_PAYMENT_METHOD.equals(pi.status) || pi.expiresAt.isAfter(transitions.now());
    }
}
