package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.dashboard.WebhookAddresses.DeliveryFilter;
import ht.platform.support.dashboard.WebhookAddresses.Shown;
import ht.platform.support.errors.ApiException;
import ht.platform.support.feed.FeedLags;
import ht.platform.support.time.Times;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The dashboard's webhook pages and actions, once for the three services: each takes the session's permission from
 * the service's {@link WebhookWords}, acts through its {@link WebhookAddresses} as the session's caller (so an
 * address or delivery of another owner or mode is 404) and is audited by {@link DashboardPages}.
 */
@ApplicationScoped
public class AddressActions {

    @Inject
    DashboardPages pages;

    @Inject
    Merchant merchant;

    @Inject
    WebhookAddresses addresses;

    @Inject
    WebhookWords words;

    @Inject
    FeedLags feedLags;

    /** The addresses, each pull address with how far behind its feed is, and the register form. */
    public Uni<Response> list(String resent) {
        return pages.show(words.templates() + words.section(), words.section(), () -> addresses.list(merchant.require(words.readPermission()))
                .chain(list -> feedLags.of(list.stream().filter(a -> "pull".equals(a.delivery())).map(a -> a.id()).toList())
                        .map(lags -> Map.of("addresses", list, "kinds", words.eventTypes(), "lags", lags,
                                "resent", resent == null ? "" : resent))));
    }

    /** One address: its state, its actions and its latest deliveries. */
    public Uni<Response> address(String id, String resent) {
        if (words.detailTemplate() == null) {
            return absent(id);
        }
        return pages.show(words.detailTemplate(), words.section(), () -> addresses.get(merchant.require(words.readPermission()), id)
                .chain(a -> addresses.deliveries(merchant.require(words.readPermission()), new DeliveryFilter(a.id(), null, null), null, 10)
                        .map(page -> Map.of("address", a, "deliveries", page.rows(), "resent", resent == null ? "" : resent))));
    }

    /** Registers an address; the page shows its secret once. */
    public Uni<Response> register(String url, List<String> events, String delivery) {
        return showSecret(words.action(words.registerVerb()), url, () -> addresses.register(merchant.require(words.writePermission()),
                url, events, delivery));
    }

    /** An action on one address that comes back to a page, after which that page says {@code done}. */
    private record Step(BiFunction<ApiPrincipal, String, Uni<Void>> work, String done, boolean toList) { }

    /** The actions on one address by their verb, which is also their path and, after the noun, their audit name. */
    private Map<String, Step> steps;

    @PostConstruct
    void table() {
        steps = Map.of(words.deleteVerb(), new Step(addresses::delete, words.deleteVerb() + "d", true),
                "reactivate", new Step(addresses::reactivate, "reactivated", false),
                "test", new Step(addresses::test, "test_sent", false));
    }

    /** Deletes (disables) an address, reactivates a paused one or sends it a test event. */
    public Uni<Response> act(String verb, String id) {
        Step step = steps.get(verb);
        if (step == null) {
            return absent(id);
        }
        return pages.act(words.action(verb), id, () -> step.work().apply(merchant.require(words.writePermission()), id),
                x -> (step.toList() ? words.addressPath() : words.home(id)) + "?done=" + step.done());
    }

    /** Rotates the secret; the page shows the new one once and the end of the overlap. */
    public Uni<Response> rotate(String id) {
        return showSecret(words.action("rotate_secret"), id, () -> addresses.rotate(merchant.require(words.writePermission()), id));
    }

    /** Resends the failed and dead deliveries to this address created between two times. */
    public Uni<Response> recover(String id, String since, String until) {
        return pages.act(words.action("recover"), id, () -> addresses.recover(merchant.require(words.writePermission()), id,
                        Times.parse("since", since), Times.parse("until", until)),
                r -> words.home(id) + "?done=" + (r.replayed() ? "recover_repeat" : "recovered") + "&n=" + r.resent());
    }

    /** Deliveries, newest first, filtered by status, event type and (where an address has a page of its own) address. */
    public Uni<Response> deliveries(DeliveryFilter filter, String startingAfter) {
        return pages.show("dashboard/outbox/deliveries", "deliveries", () -> addresses.list(merchant.require(words.readPermission()))
                .chain(list -> addresses.deliveries(merchant.require(words.readPermission()), filter, startingAfter, words.deliveryPageSize())
                        .map(page -> {
                            Map<String, Object> data = new HashMap<>();
                            data.put("deliveries", page.rows());
                            data.put("addresses", list);
                            data.put("byAddress", words.detailTemplate() != null);
                            data.put("statuses", words.deliveryStatuses());
                            data.put("kinds", words.deliveryEventTypes());
                            data.put("f", filter);
                            data.put("next", page.next() == null ? "" : olderLink(filter, page.next()));
                            return data;
                        })));
    }

    /** One delivery with its attempts, and Resend where the session may. */
    public Uni<Response> delivery(String id) {
        return pages.show("dashboard/outbox/delivery", "deliveries", () -> addresses.delivery(merchant.require(words.readPermission()), id)
                .map(d -> Map.of("d", d, "addressLink", words.addressLink(), "resendPermission", words.writePermission())));
    }

    public Uni<Response> resend(String id) {
        return pages.act("delivery_resend", id, () -> addresses.resend(merchant.require(words.writePermission()), id),
                x -> "/dashboard/deliveries/" + id + "?done=resent");
    }

    private Uni<Response> absent(String id) {
        return pages.show("dashboard/error", null, () -> Uni.createFrom().failure(ApiException.notFound("Webhook address " + id)));
    }

    /** An action whose answer shows a secret once (and the end of the previous one's overlap), then leads back. */
    public Uni<Response> showSecret(String action, String target, Supplier<Uni<Shown>> work) {
        return pages.actAndShow(action, target, work, "dashboard/secret", words.section(), shown -> {
            Map<String, Object> data = new HashMap<>();
            data.put("secret", shown.secret());
            data.put("back", words.home(shown.addressId()));
            if (shown.overlapUntil() != null) {
                data.put("overlapUntil", shown.overlapUntil());
            }
            return data;
        });
    }

    private static String olderLink(DeliveryFilter f, String after) {
        StringBuilder link = new StringBuilder("/dashboard/deliveries?starting_after=").append(after);
        if (f.address() != null) {
            link.append("&webhook=").append(f.address());
        }
        if (f.status() != null) {
            link.append("&status=").append(f.status());
        }
        if (f.eventType() != null) {
            link.append("&type=").append(f.eventType());
        }
        return link.toString();
    }
}
