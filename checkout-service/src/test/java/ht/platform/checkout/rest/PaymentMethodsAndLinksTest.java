package ht.platform.checkout.rest;

import ht.platform.checkout.TestApi;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.SimulatorProvider;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.*;

@QuarkusTest
class PaymentMethodsAndLinksTest {

    @Inject
    PaymentRails rails;

    @Inject
    Clock clock;

    String key;

    @BeforeEach
    void setUp() {
        key = TestApi.key(TestApi.application("Methods " + System.nanoTime()), "test", null);
    }

    @AfterEach
    void closeBreaker() {
        rails.breaker(SimulatorProvider.NAME).reset();
    }

    @Test
    void methodsAreListedWithTheirAvailability() {
        as(key).get("/api/v1/payment_methods").then().statusCode(200).body("object", equalTo("list"))
                .body("data.id", containsInAnyOrder("test_card", "test_wallet")).body("data.available", everyItem(equalTo(true)));
        as(key).queryParam("currency", "EUR").get("/api/v1/payment_methods").then().statusCode(400).body("error.param", equalTo("currency"));
        rails.breaker(SimulatorProvider.NAME).transitionToOpenState();
        as(key).queryParam("currency", "HTG").get("/api/v1/payment_methods").then().statusCode(200)
                .body("data.available", everyItem(equalTo(false)));
        String id = TestApi.createIntent(key, "3");
        TestApi.simulate(key, id, "succeeded").statusCode(409).body("error.code", equalTo("PAYMENT_METHOD_UNAVAILABLE"));
        String live = TestApi.key(TestApi.application("Live"), "live", null);
        as(live).get("/api/v1/payment_methods").then().statusCode(200).body("data.size()", equalTo(0));
    }

    @Test
    void linksCreateAFreshIntentForEachBrowserSession() {
        var link = as(key).body(Map.of("amount", "10.5", "currency", "HTG", "description", "Don")).post("/api/v1/payment_links")
                .then().statusCode(201).body("id", startsWith("pay_pl_")).body("object", equalTo("payment_link"))
                .body("amount", equalTo("10.500000")).body("active", equalTo(true))
                .body("url", matchesPattern("http://localhost:8082/pay/l/pay_pl_[0-9A-Z]{26}")).extract();
        String id = link.path("id");
        as(key).get("/api/v1/payment_links/" + id).then().statusCode(200).body("description", equalTo("Don"));
        as(TestApi.key(TestApi.application("Other"), "test", null)).get("/api/v1/payment_links/" + id).then().statusCode(404);
        as(key).body("{\"amount\":10.5,\"currency\":\"HTG\"}").post("/api/v1/payment_links").then().statusCode(400);
        String first = TestApi.openLink(id);
        String second = TestApi.openLink(id);
        org.junit.jupiter.api.Assertions.assertNotEquals(first, second);
        as(key).get("/api/v1/payment_intents").then().body("data.size()", equalTo(2)).body("data.amount", everyItem(equalTo("10.500000")));
        given().get("/pay/l/pay_pl_nope").then().statusCode(404).header(TestApi.REQUEST_ID, startsWith("req_"));
        given().get("/pay/pay_cs_nope").then().statusCode(404);
    }
}
