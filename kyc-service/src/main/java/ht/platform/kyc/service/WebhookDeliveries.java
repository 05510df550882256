package ht.platform.kyc.service;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.events.KycDeliveryStore;
import ht.platform.kyc.model.DeliveryView;
import ht.platform.kyc.model.WebhookDeliveryStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.DeliveryRecovery;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;

/**
 * The webhook deliveries of one application and mode, as its dashboard sees them: the list, one delivery with its
 * attempts, Resend, and the recovery of a window. Another tenant's or mode's delivery is 404.
 */
@ApplicationScoped
public class WebhookDeliveries {

    public static final List<String> STATUSES = List.of("pending", "delivered", "dead");

    /** A page of deliveries; {@code next} is the cursor of the following page, null at the end. */
    public record Page(List<DeliveryView> data, String next) { }

    @Inject
    WebhookDeliveryStore deliveries;

    @Inject
    KycDeliveryStore store;

    @Inject
    KycDeliveryPolicy policy;

    @Inject
    DeliveryRecovery recovery;

    /** Newest first, optionally of one status, after the cursor {@code startingAfter} (a delivery id). */
    public Uni<Page> list(ApiPrincipal caller, String status, String startingAfter, int limit) {
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.invalid("status", "status must be one of " + STATUSES);
        }
        return deliveries.latest(caller.ownerId(), caller.mode(), status, startingAfter, limit + 1).map(out -> {
            boolean more = out.size() > limit;
            List<DeliveryView> page = more ? out.subList(0, limit) : out;
            return new Page(page, more ? page.get(limit - 1).id() : null);
        });
    }

    public Uni<DeliveryView> get(ApiPrincipal caller, String id) {
        return deliveries.get(caller.ownerId(), caller.mode(), id);
    }

    /** A dead or delivered delivery goes out again now, with a fresh retry schedule. */
    public Uni<DeliveryView> resend(ApiPrincipal caller, String id) {
        return get(caller, id).chain(d -> store.resend(id)).chain(n -> {
            if (n == 0) {
                throw new ApiException(409, "DELIVERY_ALREADY_PENDING", "Webhook delivery " + id + " is already queued");
            }
            return get(caller, id);
        });
    }

    /** Recover a window of this mode's webhook address: see {@link DeliveryRecovery}. */
    public Uni<DeliveryRecovery.Recovered> recover(ApiPrincipal caller, Instant since, Instant until) {
        return recovery.recover(policy, caller.ownerId(), caller.mode(), since, until);
    }
}
