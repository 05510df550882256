package ht.platform.wallet.rest;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.http.Paging;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.wallet.service.BalanceService;
import ht.platform.wallet.service.MonCashPayments;
import ht.platform.wallet.service.Views.MonCashOrderView;
import ht.platform.wallet.service.PaymentService;
import ht.platform.wallet.service.PaymentService.CreatePayment;
import ht.platform.wallet.service.Views.BalanceView;
import ht.platform.wallet.service.Views.ListView;
import ht.platform.wallet.service.Views.PaymentView;
import ht.platform.wallet.service.Views.WithdrawalView;
import ht.platform.wallet.service.WithdrawalService;
import ht.platform.wallet.service.WithdrawalService.CreateWithdrawal;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Payments, withdrawals and the balance (public API, Bearer secret key). */
@ApiKeyRequired
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MoneyResource {

    @Inject
    Caller caller;

    @Inject
    Idempotency idempotency;

    @Inject
    PaymentService payments;

    @Inject
    WithdrawalService withdrawals;

    @Inject
    MonCashPayments moncash;

    @Inject
    BalanceService balances;


    @POST
    @Path("/payments")
    @Tag(name = "Payments")
    @Operation(operationId = "createPayment", summary = "Create a payment; the customer confirms it on wallet_url. Idempotency-Key accepted")
    @APIResponse(responseCode = "201", description = "The payment and its wallet_url", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PaymentView.class)))
    public Uni<Response> createPayment(@HeaderParam("Idempotency-Key") String key, CreatePayment body) {
        return payments.create(caller.require("payments:write"), key, body).map(StoredResponse::toResponse);
    }

    @GET
    @Path("/payments/{id}")
    @Tag(name = "Payments")
    @Operation(operationId = "retrievePayment", summary = "Retrieve a payment")
    public Uni<PaymentView> getPayment(@PathParam("id") String id) {
        return payments.get(caller.require("payments:read"), id);
    }

    @GET
    @Path("/payments/{id}/moncash_orders")
    @Tag(name = "Payments")
    @Operation(operationId = "listPaymentMonCashOrders", summary = "The MonCash payments a live payment sent its customer to",
            description = "Newest first. Money MonCash collected that credits nothing (another amount, or a payment "
                    + "already final) goes back to the payer by Transfert: given_back is pending, sent or refused.")
    public Uni<ListView<MonCashOrderView>> moncashOrders(@PathParam("id") String id) {
        return payments.get(caller.require("payments:read"), id).chain(p -> moncash.orders(p.id()))
                .map(orders -> ListView.of(orders.stream().map(MonCashOrderView::of).toList(), false));
    }

    @GET
    @Path("/payments")
    @Tag(name = "Payments")
    @Operation(operationId = "listPayments", summary = "List payments, newest first (limit 1..100, starting_after)")
    public Uni<ListView<PaymentView>> listPayments(@QueryParam("limit") String limit, @QueryParam("starting_after") String after) {
        ApiPrincipal principal = caller.require("payments:read");
        return payments.list(principal, Paging.of(limit, after));
    }

    @POST
    @Path("/withdrawals")
    @Tag(name = "Withdrawals")
    @Operation(operationId = "createWithdrawal", summary = "Request a withdrawal to a wallet; reserves amount plus fee. Idempotency-Key required")
    @APIResponse(responseCode = "201", description = "The withdrawal, its total reserved", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = WithdrawalView.class)))
    public Uni<Response> createWithdrawal(@HeaderParam("Idempotency-Key") String key, CreateWithdrawal body) {
        return withdrawals.create(caller.require("withdrawals:write"), key, body).map(StoredResponse::toResponse);
    }

    @GET
    @Path("/withdrawals/{id}")
    @Tag(name = "Withdrawals")
    @Operation(operationId = "retrieveWithdrawal", summary = "Retrieve a withdrawal")
    public Uni<WithdrawalView> getWithdrawal(@PathParam("id") String id) {
        return withdrawals.get(caller.require("withdrawals:read"), id);
    }

    @GET
    @Path("/withdrawals")
    @Tag(name = "Withdrawals")
    @Operation(operationId = "listWithdrawals", summary = "List withdrawals, newest first (limit 1..100, starting_after)")
    public Uni<ListView<WithdrawalView>> listWithdrawals(@QueryParam("limit") String limit, @QueryParam("starting_after") String after) {
        ApiPrincipal principal = caller.require("withdrawals:read");
        return withdrawals.list(principal, Paging.of(limit, after));
    }

    @POST
    @Path("/withdrawals/{id}/cancel")
    @Tag(name = "Withdrawals")
    @Operation(operationId = "cancelWithdrawal", summary = "Cancel a requested withdrawal; the reservation is released")
    public Uni<WithdrawalView> cancelWithdrawal(@PathParam("id") String id) {
        return withdrawals.transition(caller.require("withdrawals:write"), id, "cancel");
    }

    @GET
    @Path("/balance")
    @Tag(name = "Balance")
    @Operation(operationId = "retrieveBalance", summary = "The balance of this mode: available and reserved (HTG)")
    public Uni<BalanceView> balance() {
        return balances.get(caller.require("balance:read"));
    }

}
