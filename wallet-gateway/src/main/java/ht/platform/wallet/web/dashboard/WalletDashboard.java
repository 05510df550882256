package ht.platform.wallet.web.dashboard;

import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.ServiceDashboard;
import ht.platform.support.dashboard.SignedIn;
import ht.platform.support.http.Paging;
import ht.platform.wallet.service.BalanceService;
import ht.platform.wallet.service.PaymentService;
import ht.platform.wallet.service.Views.PaymentView;
import ht.platform.wallet.service.Views.WithdrawalView;
import ht.platform.wallet.service.WithdrawalService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;

/**
 * The wallet gateway's merchant dashboard: payments, withdrawals and the balance read-only; its home is the webhook
 * addresses. The webhook addresses and their deliveries are the shared pages ({@link WalletWebhookPages},
 * {@link WalletDeliveryPages}) over {@link WalletAddresses}.
 */
@Path("/dashboard")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class WalletDashboard extends ServiceDashboard {

    @Inject
    PaymentService payments;

    @Inject
    WithdrawalService withdrawals;

    @Inject
    BalanceService balances;

    public WalletDashboard() {
        super("dashboard/wallet/", "/dashboard/webhooks");
    }

    @GET
    @Path("/payments")
    @Operation(summary = "Payments, newest first (HTML)")
    public Uni<Response> paymentList(@QueryParam("starting_after") String after) {
        return list("payments", "payments", "payments:read", caller -> payments.list(caller, Paging.of("25", blank(after)))
                .map(page -> Rows.of(page.data(), page.has_more(), PaymentView::id)));
    }

    @GET
    @Path("/withdrawals")
    @Operation(summary = "Withdrawals, newest first (HTML)")
    public Uni<Response> withdrawalList(@QueryParam("starting_after") String after) {
        return list("withdrawals", "withdrawals", "withdrawals:read", caller -> withdrawals.list(caller, Paging.of("25", blank(after)))
                .map(page -> Rows.of(page.data(), page.has_more(), WithdrawalView::id)));
    }

    @GET
    @Path("/balance")
    @Operation(summary = "The balance of this mode (HTML)")
    public Uni<Response> balance() {
        return pages.show(templates + "balance", "balance", () -> balances.get(merchant.require("balance:read")).map(b -> Map.of("b", b)));
    }
}
