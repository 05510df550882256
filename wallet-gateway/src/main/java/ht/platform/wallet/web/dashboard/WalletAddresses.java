package ht.platform.wallet.web.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.support.dashboard.WebhookAddresses;
import ht.platform.support.dashboard.WebhookWords;
import ht.platform.support.http.Paging;
import ht.platform.wallet.events.EventTypes;
import ht.platform.wallet.events.WalletDeliveryPolicy;
import ht.platform.wallet.service.Views;
import ht.platform.wallet.service.WebhookService;
import ht.platform.wallet.service.WebhookService.RegisterWebhook;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/** The gateway's webhook addresses for the shared dashboard pages: every operation is the API's WebhookService method. */
@ApplicationScoped
public class WalletAddresses implements WebhookAddresses {

    @Produces
    static WebhookWords words(WalletDeliveryPolicy policy) {
        return new WebhookWords("/dashboard/webhooks", "dashboard/wallet/", "dashboard/wallet/webhook", "webhook", "register",
                "delete", "webhooks:read", "webhooks:write", 20, EventTypes.SUBSCRIBABLE,
                Stream.concat(EventTypes.SUBSCRIBABLE.stream(), Stream.of(EventTypes.PING)).toList(), policy.words().all());
    }

    @Inject
    WebhookService webhooks;

    @Override
    public Uni<List<AddressRow>> list(ApiPrincipal caller) {
        return webhooks.list(caller).map(list -> list.data().stream().map(WalletAddresses::row).toList());
    }

    @Override
    public Uni<AddressRow> get(ApiPrincipal caller, String id) {
        return webhooks.get(caller, id).map(WalletAddresses::row);
    }

    @Override
    public Uni<Shown> register(ApiPrincipal caller, String url, List<String> events, String delivery) {
        return webhooks.register(caller, new RegisterWebhook(url, events == null ? List.of() : events, delivery))
                .map(w -> new Shown(w.id(), w.secret(), null));
    }

    @Override
    public Uni<Void> delete(ApiPrincipal caller, String id) {
        return webhooks.delete(caller, id);
    }

    @Override
    public Uni<Void> reactivate(ApiPrincipal caller, String id) {
        return webhooks.reactivate(caller, id).replaceWithVoid();
    }

    @Override
    public Uni<Shown> rotate(ApiPrincipal caller, String id) {
        return webhooks.rotate(caller, id).map(r -> new Shown(r.id(), r.secret(), r.previous_secret_expires_at()));
    }

    @Override
    public Uni<Void> test(ApiPrincipal caller, String id) {
        return webhooks.ping(caller, id).replaceWithVoid();
    }

    @Override
    public Uni<Recovery> recover(ApiPrincipal caller, String id, Instant since, Instant until) {
        return webhooks.recover(caller, id, since, until).map(r -> new Recovery(r.resent(), r.replayed()));
    }

    @Override
    public Uni<DeliveryPage> deliveries(ApiPrincipal caller, DeliveryFilter f, String startingAfter, int limit) {
        return webhooks.searchDeliveries(caller, new WebhookService.DeliveryFilter(f.address(), f.status(), f.eventType()),
                        new Paging(limit, startingAfter))
                .map(list -> new DeliveryPage(list.data().stream().map(WalletAddresses::row).toList(),
                        list.has_more() ? list.data().get(list.data().size() - 1).id() : null));
    }

    @Override
    public Uni<DeliveryRow> delivery(ApiPrincipal caller, String id) {
        return webhooks.delivery(caller, id).map(WalletAddresses::row);
    }

    @Override
    public Uni<Void> resend(ApiPrincipal caller, String id) {
        return webhooks.resend(caller, id).replaceWithVoid();
    }

    private static AddressRow row(Views.WebhookView w) {
        return new AddressRow(w.id(), w.url(), w.status(), w.events(), w.delivery(), w.consecutive_failures(), w.paused_at(),
                w.created_at());
    }

    private static DeliveryRow row(Views.DeliveryView d) {
        Integer last = d.attempts().isEmpty() ? null : d.attempts().get(d.attempts().size() - 1).status_code();
        return new DeliveryRow(d.id(), d.event_id(), d.event_type(), d.webhook_id(), d.status(), d.attempt_count(), last,
                d.next_attempt_at(), d.created_at(), d.delivered_at(), !"pending".equals(d.status()), DeliveryRow.attempts(d.attempts(), null));
    }
}
