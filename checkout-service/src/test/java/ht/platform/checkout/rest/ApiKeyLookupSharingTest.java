package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import ht.platform.support.tenancy.Tenancy;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class ApiKeyLookupSharingTest {

    @Inject
    Tenancy tenancy;

    @TestHTTPResource("/api/v1/payment_methods")
    URI methods;

    @Test
    void concurrentRequestsWithOneUncachedKeyShareOneLookup() {
        String key = TestApi.key(TestApi.application("Flood " + System.nanoTime()), "test", null);
        long before = tenancy.keyLookups();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(methods).header("Authorization", "Bearer " + key).GET().build();
        List<CompletableFuture<HttpResponse<String>>> flood = IntStream.range(0, 200)
                .mapToObj(i -> client.sendAsync(request, HttpResponse.BodyHandlers.ofString())).toList();
        for (CompletableFuture<HttpResponse<String>> answer : flood) {
            assertEquals(200, answer.join().statusCode());
        }
        assertEquals(1, tenancy.keyLookups() - before, "200 requests of one key not yet cached went to the database once");
    }
}
