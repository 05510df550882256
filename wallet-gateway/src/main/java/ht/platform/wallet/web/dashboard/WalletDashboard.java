package ht.platform.wallet.web.dashboard;

import ht.platform.support.feed.FeedLags;
import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.wallet.service.Views;
import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.DashboardPages;
import ht.platform.support.dashboard.Merchant;
import ht.platform.support.dashboard.SignedIn;
import ht.platform.support.time.Times;
import ht.platform.wallet.events.EventTypes;
import ht.platform.wallet.service.BalanceService;
import ht.platform.support.http.Paging;
import ht.platform.wallet.service.PaymentService;
import ht.platform.wallet.service.WebhookService;
import ht.platform.wallet.service.WebhookService.DeliveryFilter;
import ht.platform.wallet.service.WebhookService.RegisterWebhook;
import ht.platform.wallet.service.WithdrawalService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The wallet gateway's merchant dashboard: webhook addresses and their deliveries (every action through the same
 * WebhookService method as the API), payments, withdrawals and the balance read-only.
 */
@Path("/dashboard")
@DashboardPage
@SignedIn
@Produces(MediaType.TEXT_HTML)
@Tag(name = "Dashboard")
public class WalletDashboard {

    private static final String PAGES = "dashboard/wallet/";

    @Inject
    DashboardPages pages;

    @Inject
    Merchant merchant;

    @Inject
    WebhookService webhooks;

    @Inject
    PaymentService payments;

    @Inject
    WithdrawalService withdrawals;

    @Inject
    BalanceService balances;

    @Inject
    FeedLags feedLags;

    @GET
    @Operation(summary = "The dashboard's home: the webhook addresses")
    public Response home() {
        return Response.seeOther(URI.create("/dashboard/webhooks")).build();
    }

    @GET
    @Path("/webhooks")
    @Operation(summary = "Webhook addresses (HTML)")
    public Uni<Response> webhookList() {
        return pages.show(PAGES + "webhooks", "webhooks", () -> webhooks.list(merchant.require("webhooks:read"))
                .chain(list -> feedLags.of(list.data().stream().filter(w -> "pull".equals(w.delivery())).map(w -> w.id()).toList())
                        .map(lags -> Map.of("webhooks", list.data(), "kinds", EventTypes.SUBSCRIBABLE, "lags", lags))));
    }

    @POST
    @Path("/webhooks")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Register an address; the page shows its secret once")
    public Uni<Response> register(@FormParam("url") String url, @FormParam("events") List<String> events,
                                  @FormParam("delivery") String delivery) {
        return pages.actAndShow("webhook_register", url, () -> webhooks.register(merchant.require("webhooks:write"),
                        new RegisterWebhook(url, events == null ? List.of() : events, delivery)),
                "dashboard/secret", "webhooks", created -> Map.of("back", "/dashboard/webhooks/" + created.id(),
                        "secret", created.secret()));
    }

    @GET
    @Path("/webhooks/{id}")
    @Operation(summary = "One address: its state, actions and latest deliveries (HTML)")
    public Uni<Response> webhook(@PathParam("id") String id, @QueryParam("n") String resent) {
        return pages.show(PAGES + "webhook", "webhooks", () -> webhooks.get(merchant.require("webhooks:read"), id)
                .chain(w -> webhooks.deliveries(merchant.require("webhooks:read"), id, new Paging(10, null))
                        .map(ds -> {
                            Map<String, Object> data = new HashMap<>();
                            data.put("w", w);
                            data.put("deliveries", ds.data().stream().map(WalletDashboard::row).toList());
                            data.put("resent", resent == null ? "" : resent);
                            return data;
                        })));
    }

    @POST
    @Path("/webhooks/{id}/delete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Delete an address")
    public Uni<Response> delete(@PathParam("id") String id) {
        return pages.act("webhook_delete", id, () -> webhooks.delete(merchant.require("webhooks:write"), id),
                x -> "/dashboard/webhooks?done=deleted");
    }

    @POST
    @Path("/webhooks/{id}/reactivate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Reactivate a paused address")
    public Uni<Response> reactivate(@PathParam("id") String id) {
        return pages.act("webhook_reactivate", id, () -> webhooks.reactivate(merchant.require("webhooks:write"), id),
                w -> "/dashboard/webhooks/" + id + "?done=reactivated");
    }

    @POST
    @Path("/webhooks/{id}/rotate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Rotate the secret; the page shows the new one once and the end of the overlap")
    public Uni<Response> rotate(@PathParam("id") String id) {
        return pages.actAndShow("webhook_rotate_secret", id, () -> webhooks.rotate(merchant.require("webhooks:write"), id),
                "dashboard/secret", "webhooks", r -> Map.of("back", "/dashboard/webhooks/" + r.id(), "secret", r.secret(),
                        "overlapUntil", r.previous_secret_expires_at()));
    }

    @POST
    @Path("/webhooks/{id}/test")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Send a test: a webhook.ping to this address")
    public Uni<Response> sendTest(@PathParam("id") String id) {
        return pages.act("webhook_test", id, () -> webhooks.ping(merchant.require("webhooks:write"), id),
                p -> "/dashboard/webhooks/" + id + "?done=test_sent");
    }

    @POST
    @Path("/webhooks/{id}/recover")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Recover a window: resend the failed and abandoned deliveries created between two times")
    public Uni<Response> recover(@PathParam("id") String id, @FormParam("since") String since, @FormParam("until") String until) {
        return pages.act("webhook_recover", id, () -> webhooks.recover(merchant.require("webhooks:write"), id,
                        Times.parse("since", since), Times.parse("until", until)),
                r -> "/dashboard/webhooks/" + id + "?done=" + (r.replayed() ? "recover_repeat" : "recovered") + "&n=" + r.resent());
    }

    @GET
    @Path("/deliveries")
    @Operation(summary = "Deliveries, newest first, filtered by address, status and event kind (HTML)")
    public Uni<Response> deliveries(@QueryParam("webhook") String webhook, @QueryParam("status") String status,
                                    @QueryParam("type") String type, @QueryParam("starting_after") String after) {
        DeliveryFilter filter = new DeliveryFilter(blank(webhook), blank(status), blank(type));
        return pages.show(PAGES + "deliveries", "deliveries", () -> webhooks.list(merchant.require("webhooks:read"))
                .chain(addresses -> webhooks.searchDeliveries(merchant.require("webhooks:read"), filter, Paging.of("20", blank(after)))
                        .map(list -> {
                            Map<String, Object> data = new HashMap<>();
                            data.put("deliveries", list.data().stream().map(WalletDashboard::row).toList());
                            data.put("hasMore", list.has_more());
                            data.put("addresses", addresses.data());
                            data.put("statuses", webhooks.deliveryStatuses());
                            List<String> kinds = new ArrayList<>(EventTypes.SUBSCRIBABLE);
                            kinds.add(EventTypes.PING);
                            data.put("kinds", kinds);
                            data.put("f", filter);
                            data.put("next", list.data().isEmpty() ? "" : olderLink(filter, list.data().get(list.data().size() - 1).id()));
                            return data;
                        })));
    }

    @GET
    @Path("/deliveries/{id}")
    @Operation(summary = "One delivery with its attempts (HTML)")
    public Uni<Response> delivery(@PathParam("id") String id) {
        return pages.show("dashboard/outbox/delivery", "deliveries", () -> webhooks.delivery(merchant.require("webhooks:read"), id)
                .map(d -> Map.of("d", row(d), "addressLink", "/dashboard/webhooks/", "resendPermission", "webhooks:write")));
    }

    @POST
    @Path("/deliveries/{id}/resend")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Resend a delivery")
    public Uni<Response> resend(@PathParam("id") String id) {
        return pages.act("delivery_resend", id, () -> webhooks.resend(merchant.require("webhooks:write"), id),
                d -> "/dashboard/deliveries/" + id + "?done=resent");
    }

    @GET
    @Path("/payments")
    @Operation(summary = "Payments, newest first (HTML)")
    public Uni<Response> paymentList(@QueryParam("starting_after") String after) {
        return pages.show(PAGES + "payments", "payments", () -> payments.list(merchant.require("payments:read"), Paging.of("25", blank(after)))
                .map(list -> Map.of("payments", list.data(), "next", list.has_more()
                        ? "/dashboard/payments?starting_after=" + list.data().get(list.data().size() - 1).id() : "")));
    }

    @GET
    @Path("/withdrawals")
    @Operation(summary = "Withdrawals, newest first (HTML)")
    public Uni<Response> withdrawalList(@QueryParam("starting_after") String after) {
        return pages.show(PAGES + "withdrawals", "withdrawals", () -> withdrawals.list(merchant.require("withdrawals:read"), Paging.of("25", blank(after)))
                .map(list -> Map.of("withdrawals", list.data(), "next", list.has_more()
                        ? "/dashboard/withdrawals?starting_after=" + list.data().get(list.data().size() - 1).id() : "")));
    }

    @GET
    @Path("/balance")
    @Operation(summary = "The balance of this mode (HTML)")
    public Uni<Response> balance() {
        return pages.show(PAGES + "balance", "balance", () -> balances.get(merchant.require("balance:read")).map(b -> Map.of("b", b)));
    }

    private static String olderLink(DeliveryFilter f, String lastId) {
        StringBuilder sb = new StringBuilder("/dashboard/deliveries?starting_after=").append(lastId);
        if (f.webhookId() != null) {
            sb.append("&webhook=").append(f.webhookId());
        }
        if (f.status() != null) {
            sb.append("&status=").append(f.status());
        }
        if (f.eventType() != null) {
            sb.append("&type=").append(f.eventType());
        }
        return sb.toString();
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static DeliveryRow row(Views.DeliveryView d) {
        Integer last = d.attempts().isEmpty() ? null : d.attempts().get(d.attempts().size() - 1).status_code();
        return new DeliveryRow(d.id(), d.event_id(), d.event_type(), d.webhook_id(), d.status(), d.attempt_count(), last,
                d.next_attempt_at(), d.created_at(), d.delivered_at(), !"pending".equals(d.status()), d.attempts().stream()
                .map(a -> new DeliveryRow.AttemptRow(a.attempt_number(), a.attempted_at(), null, a.success(), a.status_code(),
                        a.latency_ms(), a.error(), a.response_excerpt())).toList());
    }
}
