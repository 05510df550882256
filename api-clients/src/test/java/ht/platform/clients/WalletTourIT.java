package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import ht.platform.clients.wallet.ApiClient;
import ht.platform.clients.wallet.api.BalanceApi;
import ht.platform.clients.wallet.api.PaymentsApi;
import ht.platform.clients.wallet.api.TestHelpersApi;
import ht.platform.clients.wallet.api.WebhooksApi;
import ht.platform.clients.wallet.model.BalanceView;
import ht.platform.clients.wallet.model.CreatePayment;
import ht.platform.clients.wallet.model.PaymentView;
import ht.platform.clients.wallet.model.RegisterWebhook;
import ht.platform.clients.wallet.model.WebhookCreated;
import ht.platform.support.testing.ServiceTerms;
import ht.platform.webhooks.signing.SignatureScheme;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's wallet tour through the generated clients: a payment to succeeded, its payment.succeeded verified. */
class WalletTourIT {

    @RegisterExtension
    static final RunningService.PerClass wallet = new RunningService.PerClass(ServiceTerms.WALLET);

    @Test
    void theTourThroughTheJavaClient() throws Exception {
        long started = System.nanoTime();
        ApiClient client = new ApiClient();
        client.updateBaseUri(wallet.base());
        client.setRequestInterceptor(Tours.bearer(wallet.testKey("Java tour")));
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.GATEWAY)) {
            WebhookCreated webhook = new WebhooksApi(client).createWebhook(new RegisterWebhook().url(receiver.url())
                    .events(List.of("payment.created", "payment.pending", "payment.succeeded")));
            receiver.secret(webhook.getSecret());
            PaymentView payment = new PaymentsApi(client).createPayment(
                    new CreatePayment().amount(1000L).currency("HTG").reference("order-1001"), "order-1001");
            assertEquals("created", payment.getStatus());
            assertEquals(25L, payment.getFee().longValue());
            assertEquals(1025L, payment.getTotal().longValue());
            assertEquals("succeeded", new TestHelpersApi(client).driveTestPayment("succeed", payment.getId()).getStatus());
            JsonNode event = receiver.await("payment.succeeded", e -> payment.getId().equals(e.path("data").path("object").path("id").asText()));
            assertEquals("succeeded", event.path("data").path("object").path("status").asText());
            assertEquals("succeeded", new PaymentsApi(client).retrievePayment(payment.getId()).getStatus());
            BalanceView balance = new BalanceApi(client).retrieveBalance();
            assertEquals(1000L, balance.getAvailable().longValue());
            assertEquals(List.of(), receiver.rejected());
        }
        System.out.println("[tour] wallet through the Java client: " + Tours.millis(started) + " ms");
    }

    @Test
    void theTourThroughTheTypeScriptClient() throws Exception {
        long started = System.nanoTime();
        Path secret = Tours.secretFile("wallet");
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.GATEWAY, secret)) {
            JsonNode result = TypeScriptClients.runTour("wallet", Map.of("BASE_URL", wallet.base(), "API_KEY", wallet.testKey("TypeScript tour"),
                    "WEBHOOK_URL", receiver.url(), "SECRET_FILE", secret.toString()));
            assertEquals("succeeded", result.path("status").asText());
            assertEquals(1000, result.path("available").asLong());
            String payment = result.path("payment").asText();
            JsonNode event = receiver.await("payment.succeeded", e -> payment.equals(e.path("data").path("object").path("id").asText()));
            assertEquals("succeeded", event.path("data").path("object").path("status").asText());
            assertEquals(List.of(), receiver.rejected());
            assertEquals(true, Files.exists(secret));
        }
        System.out.println("[tour] wallet through the TypeScript client: " + Tours.millis(started) + " ms");
    }
}
