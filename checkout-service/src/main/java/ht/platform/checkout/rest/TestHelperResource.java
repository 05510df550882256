package ht.platform.checkout.rest;

import ht.platform.checkout.service.Requests;
import ht.platform.support.http.PublicUrls;
import ht.platform.checkout.service.PaymentIntentService;
import ht.platform.checkout.service.TestModeSimulation;
import ht.platform.checkout.service.Views;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/test_helpers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Test helpers")
public class TestHelperResource {

    @Inject
    PublicUrls urls;

    @Inject
    Caller caller;

    @Inject
    PaymentIntentService payments;

    @Inject
    TestModeSimulation simulation;

    @POST
    @Path("/payment_intents/{id}/simulate")
    @Operation(operationId = "simulateTestPaymentIntent", summary = "Pay a test payment intent with a chosen outcome (what the customer does on the hosted page)",
            description = "Test keys only (a live key gets 403 INSUFFICIENT_SCOPE); scope payment_intents:write. Outcomes: succeeded,"
                    + " failed, requires_action, provider_pending, provider_unknown_then_succeeded, provider_unknown_then_failed."
                    + " Errors: 400 INVALID_REQUEST; 404 NOT_FOUND; 409 PAYMENT_INTENT_UNEXPECTED_STATE, PAYMENT_METHOD_UNAVAILABLE.")
    public Uni<Views.PaymentIntentView> simulate(@PathParam("id") String id, Requests.Simulate body) {
        ApiPrincipal p = caller.requireTestMode();
        caller.require("payment_intents:write");
        if (body == null || body.payment_method() == null) {
            throw ApiException.invalid("payment_method", "payment_method is required");
        }
        return simulation.pay(p, id, body.payment_method(), body.outcome()).map(pi -> Views.of(pi, urls.base()));
    }

    @POST
    @Path("/provider_pending/{id}/settle")
    @Operation(operationId = "settleTestProviderPending", summary = "The test rail concludes a provider_pending payment; the service then settles it by asking the rail",
            description = "Test keys only; scope payment_intents:write. {id} is the payment intent. Errors: 400; 404; 409 PAYMENT_INTENT_UNEXPECTED_STATE.")
    public Uni<Views.PaymentIntentView> settle(@PathParam("id") String id, Requests.Settle body) {
        ApiPrincipal p = caller.requireTestMode();
        caller.require("payment_intents:write");
        if (body == null || (!"succeeded".equals(body.outcome()) && !"failed".equals(body.outcome()))) {
            throw ApiException.invalid("outcome", "outcome must be 'succeeded' or 'failed'");
        }
        return simulation.settle(p, id, "succeeded".equals(body.outcome())).map(pi -> Views.of(pi, urls.base()));
    }
}
