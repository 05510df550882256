package ht.platform.rail.moncash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.rail.moncash.sandbox.MonCashSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stand-in is as strict as a server that routes by method and path: 405 for a wrong method, 404 for an unknown
 * path, 415/400 for a wrong or incomplete body, and answers with the fields, in the order, of MonCash's public samples.
 */
class SandboxStrictnessTest {

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    MonCashSandbox sandbox;
    String bearer;

    @BeforeEach
    void start() throws Exception {
        sandbox = MonCashSandbox.start(0, "id", "secret", URI.create("http://127.0.0.1:1/return"));
        HttpResponse<String> token = http.send(HttpRequest.newBuilder(URI.create(sandbox.apiBase() + "/oauth/token"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("id:secret".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("scope=read,write&grant_type=client_credentials")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, token.statusCode());
        assertEquals(List.of("access_token", "token_type", "expires_in", "scope", "jti"), fields(json.readTree(token.body())));
        bearer = "Bearer " + json.readTree(token.body()).path("access_token").asText();
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    HttpResponse<String> call(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sandbox.apiBase() + path)).header("Authorization", bearer)
                .header("Accept", "application/json");
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<String> fields(JsonNode node) {
        List<String> out = new java.util.ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    @Test
    void aWrongMethodIs405WithAllow() throws Exception {
        HttpResponse<String> post = call("POST", "/v1/PrefundedBalance", "application/json", "{}");
        assertEquals(405, post.statusCode());
        assertEquals("GET", post.headers().firstValue("Allow").orElseThrow());
        assertEquals(405, call("GET", "/v1/Transfert", null, null).statusCode());
        assertEquals(405, call("GET", "/v1/CreatePayment", null, null).statusCode());
        assertEquals(0, sandbox.transfers().size());
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(sandbox.gatewayBase() + "/Payment/Pay")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, page.statusCode());
        assertEquals(404, http.send(HttpRequest.newBuilder(URI.create(sandbox.gatewayBase() + "/Payment/Other")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void anUnknownPathIs404() throws Exception {
        assertEquals(404, call("POST", "/v1/Transfer", "application/json", "{}").statusCode());
        assertEquals(404, call("GET", "/v1/prefundedbalance", null, null).statusCode());
        assertEquals(404, call("POST", "/v2/CreatePayment", "application/json", "{}").statusCode());
    }

    @Test
    void aMissingFieldIs400AndAJsonCallWithoutJsonIs415() throws Exception {
        assertEquals(400, call("POST", "/v1/Transfert", "application/json",
                "{\"amount\":1,\"receiver\":\"50937000000\",\"reference\":\"r\"}").statusCode(), "desc is one of the four fields");
        assertEquals(400, call("POST", "/v1/CreatePayment", "application/json", "{\"amount\":1}").statusCode());
        assertEquals(400, call("POST", "/v1/PrefundedTransactionStatus", "application/json", "{}").statusCode());
        assertEquals(415, call("POST", "/v1/CreatePayment", "text/plain", "{\"amount\":1,\"orderId\":\"o\"}").statusCode());
    }

    @Test
    void answersHaveTheSamplesFieldsAndHaitiLocalTimes() throws Exception {
        sandbox.at(Instant.parse("2019-05-24T16:36:55.107Z"));
        HttpResponse<String> created = call("POST", "/v1/CreatePayment", "application/json", "{\"amount\":10,\"orderId\":\"o-1\"}");
        assertEquals(202, created.statusCode());
        JsonNode c = json.readTree(created.body());
        assertEquals(List.of("path", "payment_token", "timestamp", "status", "mode"), fields(c));
        assertEquals(List.of("expired", "created", "token"), fields(c.path("payment_token")));
        assertEquals("2019-05-24 12:36:55:107", c.path("payment_token").path("created").asText());
        assertEquals("2019-05-24 12:46:55:107", c.path("payment_token").path("expired").asText());
        assertEquals(1558715815107L, c.path("timestamp").asLong());

        JsonNode balance = json.readTree(call("GET", "/v1/PrefundedBalance", null, null).body());
        assertEquals(List.of("path", "balance", "timestamp", "status"), fields(balance));
        assertEquals("/Api/v1/PrefundedBalance", balance.path("path").asText());

        HttpResponse<String> missing = call("POST", "/v1/PrefundedTransactionStatus", "application/json", "{\"reference\":\"nope\"}");
        assertEquals(404, missing.statusCode());
        assertEquals("Can't find this transaction", json.readTree(missing.body()).path("message").asText());

        sandbox.fullWallet("50937009999");
        HttpResponse<String> full = call("POST", "/v1/Transfert", "application/json",
                "{\"amount\":5,\"receiver\":\"50937009999\",\"desc\":\"d\",\"reference\":\"r-full\"}");
        assertEquals(403, full.statusCode());
        JsonNode f = json.readTree(full.body());
        assertEquals(List.of("path", "error", "message", "timestamp", "status"), fields(f));
        assertEquals("Maximum Account Balance", f.path("message").asText());
        assertTrue(sandbox.transfers().isEmpty());
    }
}
