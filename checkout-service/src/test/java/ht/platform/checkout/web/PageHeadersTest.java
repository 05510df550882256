package ht.platform.checkout.web;

import ht.platform.checkout.TestApi;
import ht.platform.support.testing.PageHeadersContract;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;

/** Every page of checkout (payment and link pages, their error pages, the dashboard) carries the one page header policy. */
@QuarkusTest
class PageHeadersTest {

    @Test
    void everyPageRouteAnswersWithThePageHeaders() {
        String key = TestApi.key(TestApi.application("Headers " + System.nanoTime()), "test", null);
        String link = as(key).body(Map.of("amount", "10.5", "currency", "HTG", "description", "Don"))
                .post("/api/v1/payment_links").then().statusCode(201).extract().path("url");
        PageHeadersContract.assertEveryPage(List.of("GET " + URI.create(link).getPath()));
    }
}
