package ht.platform.wallet.rest;

import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Request metrics are labelled with route templates: what a caller types into a path never becomes a series. */
@QuarkusTest
class RequestMetricsTest {

    @Test
    void refusedMethodsAndUnknownPathsAreLabelledWithTheTemplateNeverTheRawPath() {
        String key = TestApi.key(TestApi.project("Metrics " + System.nanoTime()), "test");
        String typed = "pay_typed" + System.nanoTime();
        as(key).delete("/api/v1/payments/" + typed).then().statusCode(405);
        as(key).put("/api/v1/webhooks/" + typed + "x/rotate_secret").then().statusCode(405);
        as(key).get("/api/v1/no_such_thing/" + typed + "y").then().statusCode(404);
        as(key).get("/api/v1/payments/" + typed + "z").then().statusCode(404);
        given().get("/wallet/" + typed + "w/nothing/here").then().statusCode(404);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertFalse(metrics.contains(typed), "a typed id in a series: " + metrics.lines()
                .filter(l -> l.contains(typed)).findFirst().orElse(""));
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("http_server_requests_seconds_count")
                && l.contains("uri=\"/api/v1/payments/{id}\"") && l.contains("status=\"405\"")), "405 under its template");
    }

    @Test
    void anOverlongUtf8FormInABodyIs400LikeAnyMalformedByte() {
        String key = TestApi.key(TestApi.project("Overlong " + System.nanoTime()), "test");
        byte[] start = "{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"a".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] body = java.util.Arrays.copyOf(start, start.length + 5);
        body[start.length] = (byte) 0xC0; // an overlong '/'
        body[start.length + 1] = (byte) 0xAF;
        body[start.length + 2] = 'b';
        body[start.length + 3] = '"';
        body[start.length + 4] = '}';
        as(key).body(body).post("/api/v1/payments").then().statusCode(400)
                .body("error.code", org.hamcrest.Matchers.equalTo("INVALID_JSON"));
    }
}
