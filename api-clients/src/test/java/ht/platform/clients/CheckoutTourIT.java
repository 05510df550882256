package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import ht.platform.clients.checkout.ApiClient;
import ht.platform.clients.checkout.api.PaymentIntentsApi;
import ht.platform.clients.checkout.api.RefundsApi;
import ht.platform.clients.checkout.api.TestHelpersApi;
import ht.platform.clients.checkout.api.WebhooksApi;
import ht.platform.clients.checkout.model.CreatePaymentIntent;
import ht.platform.clients.checkout.model.CreateRefund;
import ht.platform.clients.checkout.model.CreateWebhookEndpoint;
import ht.platform.clients.checkout.model.PaymentIntent;
import ht.platform.clients.checkout.model.Refund;
import ht.platform.clients.checkout.model.SimulatePayment;
import ht.platform.clients.checkout.model.WebhookEndpoint;
import ht.platform.support.testing.ServiceTerms;
import ht.platform.webhooks.signing.SignatureScheme;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's checkout tour through the generated clients: an intent paid and partly refunded, both webhooks verified. */
class CheckoutTourIT {

    @RegisterExtension
    static final RunningService.PerClass checkout = new RunningService.PerClass(ServiceTerms.CHECKOUT);

    @Test
    void theTourThroughTheJavaClient() throws Exception {
        long started = System.nanoTime();
        ApiClient client = new ApiClient();
        client.updateBaseUri(checkout.base());
        client.setRequestInterceptor(Tours.bearer(checkout.testKey("Java tour")));
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.CHECKOUT)) {
            WebhookEndpoint endpoint = new WebhooksApi(client).createWebhookEndpoint(new CreateWebhookEndpoint().url(receiver.url())
                    .events(List.of("payment_intent.succeeded", "refund.succeeded")));
            receiver.secret(endpoint.getSecret());
            PaymentIntentsApi intents = new PaymentIntentsApi(client);
            PaymentIntent intent = intents.createPaymentIntent(new CreatePaymentIntent().amount("250.00").currency(CreatePaymentIntent.CurrencyEnum.HTG)
                    .description("Cart 42"), "cart-42-" + UUID.randomUUID());
            assertEquals("requires_payment_method", intent.getStatus());
            new TestHelpersApi(client).simulateTestPaymentIntent(intent.getId(), new SimulatePayment()
                    .paymentMethod(SimulatePayment.PaymentMethodEnum.TEST_CARD).outcome(SimulatePayment.OutcomeEnum.SUCCEEDED));
            receiver.await("payment_intent.succeeded", e -> intent.getId().equals(e.path("data").path("id").asText()));
            Refund refund = new RefundsApi(client).createRefund("refund-42-" + UUID.randomUUID(),
                    new CreateRefund().paymentIntent(intent.getId()).amount("100.00"));
            receiver.await("refund.succeeded", e -> refund.getId().equals(e.path("data").path("id").asText()));
            PaymentIntent read = intents.retrievePaymentIntent(intent.getId());
            assertEquals("partially_refunded", read.getStatus());
            assertEquals("100.000000", read.getAmountRefunded());
            assertEquals(List.of(), receiver.rejected());
        }
        System.out.println("[tour] checkout through the Java client: " + Tours.millis(started) + " ms");
    }

    @Test
    void theTourThroughTheTypeScriptClient() throws Exception {
        long started = System.nanoTime();
        Path secret = Tours.secretFile("checkout");
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.CHECKOUT, secret)) {
            JsonNode result = TypeScriptClients.runTour("checkout", Map.of("BASE_URL", checkout.base(), "API_KEY", checkout.testKey("TypeScript tour"),
                    "WEBHOOK_URL", receiver.url(), "SECRET_FILE", secret.toString()));
            assertEquals("partially_refunded", result.path("status").asText());
            String intent = result.path("intent").asText();
            String refund = result.path("refund").asText();
            receiver.await("payment_intent.succeeded", e -> intent.equals(e.path("data").path("id").asText()));
            receiver.await("refund.succeeded", e -> refund.equals(e.path("data").path("id").asText()));
            assertEquals(List.of(), receiver.rejected());
        }
        System.out.println("[tour] checkout through the TypeScript client: " + Tours.millis(started) + " ms");
    }
}
