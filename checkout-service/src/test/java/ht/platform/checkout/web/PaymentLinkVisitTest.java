package ht.platform.checkout.web;

import com.sun.net.httpserver.HttpServer;
import ht.platform.checkout.TestApi;
import ht.platform.support.testing.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static ht.platform.checkout.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Visiting a payment link creates nothing; the customer's POST opens one intent per browser session (issue 14 item 8). */
@QuarkusTest
class PaymentLinkVisitTest {

    @Test
    void aThousandVisitsCreateNothingAndOnePressOpensOneIntent() throws Exception {
        AtomicInteger hooks = new AtomicInteger();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hooks", exchange -> {
            exchange.getRequestBody().readAllBytes();
            hooks.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String app = TestApi.application("Link shop");
            String key = TestApi.key(app, "test", null);
            as(key).body(Map.of("url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks"))
                    .post("/api/v1/webhook_endpoints").then().statusCode(201);
            String link = as(key).body(Map.of("amount", "42.5", "currency", "HTG", "description", "Concert ticket"))
                    .post("/api/v1/payment_links").then().statusCode(201).extract().path("id");

            // a crawler: 1,000 visits, with and without cookies
            ExtractableResponse<Response> page = null;
            for (int i = 0; i < 1000; i++) {
                page = given().get("/pay/l/" + link + (i % 2 == 0 ? "" : "?lang=en")).then().statusCode(200)
                        .header("Cache-Control", "no-store").body(containsString("42.500000 HTG")).body(containsString("Concert ticket"))
                        .body(containsString("id=\"link-pay-button\"")).extract();
            }
            assertEquals(0, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));
            assertEquals(0, count("SELECT count(*) FROM checkout.outbox_events WHERE owner_id = ?", app));
            assertEquals(0, count("SELECT count(*) FROM checkout.outbox_deliveries d JOIN checkout.webhook_endpoints e"
                    + " ON e.id = d.destination_id WHERE e.application_id = ?", app));
            assertEquals(0, hooks.get());

            // the customer presses the button: one intent, then its hosted page
            String cookie = page.cookie("link_nonce");
            String setCookie = page.header("Set-Cookie");
            assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/pay/l/" + link), setCookie);
            String nonce = TestApi.linkNonce(page.asString());
            ExtractableResponse<Response> opened = given().redirects().follow(false).cookie("link_nonce", cookie).formParam("nonce", nonce)
                    .formParam("lang", "en").post("/pay/l/" + link).then().statusCode(303)
                    .header("Location", matchesPattern(".*/pay/pay_cs_[0-9A-Z]{26}\\?lang=en")).extract();
            String location = opened.header("Location");
            String session = opened.cookie("link_session");
            assertTrue(location.contains("/pay/" + session));
            assertEquals(1, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));
            given().get(location.substring(location.indexOf("/pay/"))).then().statusCode(200).body(containsString("id=\"pay-form\""));

            // the same browser session pressing again (or going back and pressing) is sent to the same intent
            for (int i = 0; i < 3; i++) {
                String again = given().redirects().follow(false).cookie("link_nonce", cookie).cookie("link_session", session)
                        .formParam("nonce", nonce).formParam("lang", "en").post("/pay/l/" + link).then().statusCode(303)
                        .extract().header("Location");
                assertEquals(location, again);
            }
            assertEquals(1, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));

            // a POST that did not come from the page in this browser: no cookie (another site), or a nonce that does not match
            given().redirects().follow(false).formParam("nonce", nonce).post("/pay/l/" + link).then().statusCode(403)
                    .body("error.code", equalTo("FORBIDDEN"));
            given().redirects().follow(false).cookie("link_nonce", cookie).formParam("nonce", nonce.replace(nonce.charAt(0), nonce.charAt(0) == 'A' ? 'B' : 'A'))
                    .post("/pay/l/" + link).then().statusCode(403);
            given().redirects().follow(false).cookie("link_nonce", cookie).post("/pay/l/" + link).then().statusCode(403);
            assertEquals(1, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));

            // another browser session gets its own intent; an intent that ended is not reused
            String other = TestApi.openLink(link);
            assertNotEquals(location, other);
            assertEquals(2, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));
            String intent = as(key).get("/api/v1/payment_intents").then().extract()
                    .<List<Map<String, Object>>>path("data").stream()
                    .filter(p -> ((String) p.get("checkout_url")).endsWith("/pay/" + session)).map(p -> (String) p.get("id")).findFirst().orElseThrow();
            as(key).post("/api/v1/payment_intents/" + intent + "/cancel").then().statusCode(200);
            String afterCancel = given().redirects().follow(false).cookie("link_nonce", cookie).cookie("link_session", session)
                    .formParam("nonce", nonce).post("/pay/l/" + link).then().statusCode(303).extract().header("Location");
            assertNotEquals(location.replace("?lang=en", ""), afterCancel.replaceAll("\\?.*$", ""));
            assertEquals(3, count("SELECT count(*) FROM checkout.payment_intents WHERE payment_link_id = ?", link));

            // unknown links: 404 on both
            given().get("/pay/l/pay_pl_nope").then().statusCode(404);
            given().cookie("link_nonce", cookie).formParam("nonce", nonce).post("/pay/l/pay_pl_01ARZ3NDEKTSV4RRFFQ69G5FAV").then().statusCode(404);
        } finally {
            receiver.stop(0);
        }
    }

    private static long count(String sql, String param) throws Exception {
        try (Connection db = TestDatabase.connect(); PreparedStatement st = db.prepareStatement(sql)) {
            st.setString(1, param);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
