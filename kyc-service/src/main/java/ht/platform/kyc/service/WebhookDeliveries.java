package ht.platform.kyc.service;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.model.DeliveryView;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.DeliveryRestarts;
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

    /** A page of deliveries; {@code next} is the cursor of the following page, null at the end. */
    public record Page(List<DeliveryView> data, String next) { }

    @Inject
    DeliveryLog log;

    @Inject
    DeliveryRestarts restarts;

    @Inject
    KycDeliveryPolicy policy;

    /** The delivery statuses in kyc's words, in the order pending, delivered, dead. */
    public List<String> statuses() {
        return policy.words().all();
    }

    /** Newest first, optionally of one status, after the cursor {@code startingAfter} (a delivery id). */
    public Uni<Page> list(ApiPrincipal caller, String status, String startingAfter, int limit) {
        if (status != null && policy.words().status(status) == null) {
            throw ApiException.invalid("status", "status must be one of " + statuses());
        }
        DeliveryLog.Query query = DeliveryLog.Query.of(caller.ownerId(), caller.mode())
                .status(status == null ? null : policy.words().status(status));
        return log.page(policy, query, startingAfter, limit + 1).map(out -> {
            boolean more = out.size() > limit;
            List<DeliveryView> page = (more ? out.subList(0, limit) : out).stream()
                    .map(d -> DeliveryView.of(d, policy.words(), List.of())).toList();
            return new Page(page, more ? page.get(limit - 1).id() : null);
        });
    }

    /** One delivery with its attempts; 404 when the application has none of that id in that mode. */
    public Uni<DeliveryView> get(ApiPrincipal caller, String id) {
        return log.one(policy, caller.ownerId(), caller.mode(), id).chain(d -> {
            if (d == null) {
                throw ApiException.notFound("Webhook delivery " + id);
            }
            return log.attempts(policy, List.of(id)).map(a -> DeliveryView.of(d, policy.words(), a.get(id)));
        });
    }

    /** A dead or delivered delivery goes out again now, with a fresh retry schedule. */
    public Uni<DeliveryView> resend(ApiPrincipal caller, String id) {
        return get(caller, id).chain(d -> restarts.resend(policy, caller.ownerId(), caller.mode(), id)).chain(n -> {
            if (n == 0) {
                throw new ApiException(409, "DELIVERY_ALREADY_PENDING", "Webhook delivery " + id + " is already queued");
            }
            return get(caller, id);
        });
    }

    /** Recover a window of this mode's webhook address: see {@link DeliveryRestarts}. */
    public Uni<DeliveryRestarts.Recovered> recover(ApiPrincipal caller, Instant since, Instant until) {
        return restarts.recover(policy, caller.ownerId(), caller.mode(),
                KycDeliveryPolicy.destinationOf(caller.ownerId(), caller.mode()), since, until);
    }
}
