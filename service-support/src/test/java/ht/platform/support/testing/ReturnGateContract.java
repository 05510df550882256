package ht.platform.support.testing;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every service's return page from a payment rail ({@code support/web/ReturnGate}) does, as its user meets it. */
public final class ReturnGateContract {

    private ReturnGateContract() { }

    /**
     * Returns from one client address are served until its budget (the test profile's burst of 40) ends: then 429
     * with {@code Retry-After} and the neutral page; another address is not held back.
     */
    public static void returnsAreLimitedPerClientAddress(String returnPath) {
        String from = "127.0.0." + (20 + (int) (System.nanoTime() % 200));
        int served = 0;
        RawHttp.Answer last = null;
        for (int i = 0; i < 60; i++) {
            last = RawHttp.sendFrom(from, "GET", returnPath + "?transactionId=tx" + i, Map.of());
            if (last.status() != 200) {
                break;
            }
            served++;
        }
        assertNotNull(last);
        assertEquals(429, last.status(), "the address's budget ends");
        assertTrue(served >= 40 && served < 60, "served " + served);
        assertTrue(Long.parseLong(last.header("Retry-After")) >= 1, last.headers().toString());
        assertTrue(last.body().contains("id=\"checking\""), last.body());
        given().redirects().follow(false).get(returnPath).then().statusCode(200);
    }
}
