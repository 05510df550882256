package ht.platform.wallet.rest;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import ht.platform.wallet.service.PaymentService;
import ht.platform.wallet.service.Views.PaymentView;
import ht.platform.wallet.service.Views.WithdrawalView;
import ht.platform.wallet.service.WithdrawalService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Set;

/** Test-mode helpers that drive payments and withdrawals to every outcome (a live key gets 403). */
@ApiKeyRequired
@Path("/api/v1/test_helpers")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Test helpers")
public class TestHelperResource {

    private static final Set<String> PAYMENT_ACTIONS = Set.of("succeed", "fail", "expire");
    private static final Set<String> WITHDRAWAL_ACTIONS = Set.of("process", "complete", "fail", "reject");

    @Inject
    Caller caller;

    @Inject
    PaymentService payments;

    @Inject
    WithdrawalService withdrawals;

    @POST
    @Path("/payments/{id}/{action}")
    @Operation(operationId = "driveTestPayment", summary = "Drive a test payment: succeed | fail | expire")
    public Uni<PaymentView> payment(@PathParam("id") String id, @PathParam("action") String action) {
        ApiPrincipal principal = caller.require("payments:write");
        caller.requireTestMode();
        if (!PAYMENT_ACTIONS.contains(action)) {
            throw ApiException.notFound("Test helper " + action);
        }
        return payments.transition(principal, id, action);
    }

    @POST
    @Path("/withdrawals/{id}/{action}")
    @Operation(operationId = "driveTestWithdrawal", summary = "Drive a test withdrawal: process | complete | fail | reject")
    public Uni<WithdrawalView> withdrawal(@PathParam("id") String id, @PathParam("action") String action) {
        ApiPrincipal principal = caller.require("withdrawals:write");
        caller.requireTestMode();
        if (!WITHDRAWAL_ACTIONS.contains(action)) {
            throw ApiException.notFound("Test helper " + action);
        }
        return withdrawals.transition(principal, id, action);
    }
}
