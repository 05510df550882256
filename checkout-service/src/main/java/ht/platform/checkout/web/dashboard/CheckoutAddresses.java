package ht.platform.checkout.web.dashboard;

import ht.platform.checkout.events.CheckoutDeliveryPolicy;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.service.Views;
import ht.platform.checkout.service.WebhookService;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.dashboard.WebhookAddresses;
import ht.platform.support.dashboard.WebhookWords;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;

/**
 * Checkout's webhook endpoints for the shared dashboard pages: every operation is the API's WebhookService method.
 * An endpoint has no page of its own, and checkout's deliveries are shown by event (the events pages).
 */
@ApplicationScoped
public class CheckoutAddresses implements WebhookAddresses {

    @Produces
    static WebhookWords words(CheckoutDeliveryPolicy policy) {
        return new WebhookWords("/dashboard/endpoints", "dashboard/checkout/", null, "endpoint", "create", "disable",
                "webhooks:manage", "webhooks:manage", 25, EventTypes.ALL, EventTypes.ALL, policy.words().all());
    }

    @Inject
    WebhookService webhooks;

    @Override
    public Uni<List<AddressRow>> list(ApiPrincipal caller) {
        return webhooks.list(caller).map(list -> list.data().stream().map(CheckoutAddresses::row).toList());
    }

    @Override
    public Uni<Shown> register(ApiPrincipal caller, String url, List<String> events, String delivery) {
        return webhooks.create(caller, url == null || url.isBlank() ? null : url, events == null || events.isEmpty() ? null : events,
                delivery).map(e -> new Shown(e.id(), e.secret(), null));
    }

    @Override
    public Uni<Void> delete(ApiPrincipal caller, String id) {
        return webhooks.delete(caller, id);
    }

    @Override
    public Uni<Shown> rotate(ApiPrincipal caller, String id) {
        return webhooks.rotate(caller, id).map(r -> new Shown(r.id(), r.secret(), r.previous_secret_expires_at()));
    }

    @Override
    public Uni<Recovery> recover(ApiPrincipal caller, String id, Instant since, Instant until) {
        return webhooks.recover(caller, id, since, until).map(r -> new Recovery(r.resent(), r.replayed()));
    }

    private static AddressRow row(Views.WebhookEndpointView e) {
        return new AddressRow(e.id(), e.url(), e.status(), e.events(), e.delivery(), 0, null, e.created_at());
    }
}
