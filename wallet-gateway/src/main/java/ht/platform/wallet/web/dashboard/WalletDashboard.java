package ht.platform.wallet.web.dashboard;

import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.DashboardPages;
import ht.platform.support.dashboard.Merchant;
import ht.platform.support.dashboard.SignedIn;
import ht.platform.wallet.service.BalanceService;
import ht.platform.support.http.Paging;
import ht.platform.wallet.service.PaymentService;
import ht.platform.wallet.service.WithdrawalService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URI;
import java.util.Map;

/**
 * The wallet gateway's merchant dashboard: payments, withdrawals and the balance read-only. The webhook addresses and
 * their deliveries are the shared pages ({@link WalletWebhookPages}, {@link WalletDeliveryPages}) over {@link WalletAddresses}.
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
    PaymentService payments;

    @Inject
    WithdrawalService withdrawals;

    @Inject
    BalanceService balances;

    @GET
    @Operation(summary = "The dashboard's home: the webhook addresses")
    public Response home() {
        return Response.seeOther(URI.create("/dashboard/webhooks")).build();
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

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
