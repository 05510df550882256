package ht.platform.checkout.rest;

import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.model.Money;
import ht.platform.checkout.service.Views;
import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.auth.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@ApiKeyRequired
@Path("/api/v1/payment_methods")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Payment methods")
public class PaymentMethodResource {

    @Inject
    Caller caller;

    @Inject
    PaymentRails rails;

    @GET
    @Operation(operationId = "listPaymentMethods", summary = "Payment methods really available here and now",
            description = "Scope: payment_intents:read. A method whose rail has an open circuit breaker is listed with available=false."
                    + " Errors: 400 INVALID_REQUEST (currency); 401; 403 INSUFFICIENT_SCOPE.")
    public Views.ListView<Views.PaymentMethodView> list(@QueryParam("currency") String currency) {
        ApiPrincipal p = caller.require("payment_intents:read");
        String cur = currency == null ? null : Money.currency("currency", currency);
        return Views.ListView.of(rails.methods(p.mode(), cur).stream()
                .map(m -> new Views.PaymentMethodView(m.info().id(), "payment_method", m.info().type(), m.info().name(),
                        m.info().currencies(), m.available())).toList(), false);
    }
}
