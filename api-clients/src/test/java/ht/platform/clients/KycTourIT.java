package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import ht.platform.clients.kyc.ApiClient;
import ht.platform.clients.kyc.api.PublicApi;
import ht.platform.clients.kyc.api.TestHelpersApi;
import ht.platform.clients.kyc.api.VerificationsApi;
import ht.platform.clients.kyc.model.Complete;
import ht.platform.clients.kyc.model.CreateRequest;
import ht.platform.clients.kyc.model.CreatedVerification;
import ht.platform.clients.kyc.model.ProofRequest;
import ht.platform.clients.kyc.model.ProofView;
import ht.platform.support.testing.ServiceTerms;
import ht.platform.webhooks.signing.SignatureScheme;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The README's kyc tour through the generated clients: a verification completed, its webhook verified, its proof checked against the JWKS. */
class KycTourIT {

    @RegisterExtension
    static final RunningService.PerClass kyc = new RunningService.PerClass(ServiceTerms.KYC);

    /** An application whose test events go to the receiver, its test key, and the test secret that signs them. */
    static String[] application(String name, VerifyingReceiver receiver) throws Exception {
        JsonNode app = Tours.json(kyc.operator("POST", "/admin/v1/applications", "{\"name\":\"" + name
                + "\",\"return_urls\":[\"https://bank.example/kyc/done\"],\"test_webhook_url\":\"" + receiver.url() + "\"}", 201));
        receiver.secret(app.path("test_webhook_secret").asText());
        String key = Tours.json(kyc.operator("POST", "/admin/v1/applications/" + app.path("id").asText() + "/keys",
                "{\"mode\":\"test\"}", 201)).path("key").asText();
        return new String[] {app.path("id").asText(), key};
    }

    /** The proof's claims, verified with the JWKS alone (EdDSA, issuer the service's public address, audience the application). */
    static JwtClaims verifyOffline(String jwks, String proof, String application) throws Exception {
        return new JwtConsumerBuilder()
                .setVerificationKeyResolver(new JwksVerificationKeyResolver(new JsonWebKeySet(jwks).getJsonWebKeys()))
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "EdDSA")
                .setExpectedIssuer(kyc.base()).setExpectedAudience(application)
                .setRequireExpirationTime().setRequireIssuedAt().build().processToClaims(proof);
    }

    @Test
    void theTourThroughTheJavaClient() throws Exception {
        long started = System.nanoTime();
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.KYC)) {
            String[] app = application("Java tour", receiver);
            ApiClient client = new ApiClient();
            client.updateBaseUri(kyc.base());
            client.setRequestInterceptor(Tours.bearer(app[1]));
            VerificationsApi verifications = new VerificationsApi(client);
            String person = "user-" + UUID.randomUUID();
            CreatedVerification created = verifications.createVerification(new CreateRequest().externalUserId(person)
                    .documentTypes(List.of("passport", "national_id")).returnUrl("https://bank.example/kyc/done").locale("ht"),
                    person + "-kyc-1");
            assertEquals("created", created.getStatus());
            new TestHelpersApi(client).completeTestVerification(created.getId(), new Complete().outcome("verified"));
            receiver.await("verification.verified", e -> created.getId().equals(e.path("data").path("object").path("id").asText()));
            ProofView proof = verifications.createVerificationProof(created.getId(), new ProofRequest());
            String testJwks = Tours.JSON.writeValueAsString(new PublicApi(client).retrieveTestJwks());
            assertEquals(created.getId(), verifyOffline(testJwks, proof.getProof(), app[0]).getSubject());
            // a test proof never verifies against the live JWKS
            String liveJwks = Tours.JSON.writeValueAsString(new PublicApi(client).retrieveJwks());
            assertThrows(Exception.class, () -> verifyOffline(liveJwks, proof.getProof(), app[0]));
            assertEquals("verified", verifications.retrieveSubjectStatus(person).getStatus());
            assertEquals(List.of(), receiver.rejected());
        }
        System.out.println("[tour] kyc through the Java client: " + Tours.millis(started) + " ms");
    }

    @Test
    void theTourThroughTheTypeScriptClient() throws Exception {
        long started = System.nanoTime();
        try (VerifyingReceiver receiver = new VerifyingReceiver(SignatureScheme.KYC)) {
            String[] app = application("TypeScript tour", receiver);
            JsonNode result = TypeScriptClients.runTour("kyc", Map.of("BASE_URL", kyc.base(), "API_KEY", app[1]));
            assertEquals(true, result.path("proofVerified").asBoolean());
            assertEquals("verified", result.path("subject").asText());
            String verification = result.path("verification").asText();
            receiver.await("verification.verified", e -> verification.equals(e.path("data").path("object").path("id").asText()));
            // the proof the TypeScript tour checked with node's crypto verifies here too
            String testJwks = Tours.JSON.writeValueAsString(Tours.JSON.readTree(java.net.URI.create(kyc.base() + "/.well-known/jwks-test.json").toURL()));
            verifyOffline(testJwks, result.path("proof").asText(), app[0]);
            assertEquals(List.of(), receiver.rejected());
        }
        System.out.println("[tour] kyc through the TypeScript client: " + Tours.millis(started) + " ms");
    }
}
