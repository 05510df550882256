package ht.platform.checkout.web.dashboard;

import ht.platform.support.testing.Deliveries;
import com.sun.net.httpserver.HttpServer;
import ht.platform.checkout.TestApi;
import ht.platform.checkout.events.CheckoutDeliveryPolicy;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.time.MovableClock;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import ht.platform.support.testing.DashboardBrowser;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static ht.platform.checkout.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checkout's dashboard in a real headless Chromium: from a request id in the API logs to its event, and Resend. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class CheckoutDashboardBrowserTest {

    @RegisterExtension
    static final DashboardBrowser dash = new DashboardBrowser("checkout");

    String app;
    String appName = "Ti Boutik";
    String key;
    HttpServer receiver;
    final List<String> eventIds = new CopyOnWriteArrayList<>();
    final AtomicInteger answer = new AtomicInteger(200);
    final List<Signed> signed = new CopyOnWriteArrayList<>();

    /** What a delivery carried for its signature check. */
    record Signed(String signature, String timestamp, byte[] body) { }

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    CheckoutDeliveryPolicy policy;

    @BeforeEach
    void setUp() throws IOException {
        app = TestApi.application("Ti Boutik");
        key = TestApi.key(app, "test", null);
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var headers = exchange.getRequestHeaders();
            signed.add(new Signed(headers.getFirst("Checkout-Signature"), headers.getFirst("Checkout-Timestamp"), body));
            eventIds.add(headers.getFirst("Checkout-Event-Id"));
            exchange.sendResponseHeaders(answer.get(), -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void tearDown() {
        receiver.stop(0);
    }

    static void await(String what, BooleanSupplier condition) {
        Waiting.until(what, Duration.ofSeconds(20), condition);
    }

    void signIn() {
        String url = given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/applications/" + app + "/dashboard_links").then().statusCode(201).extract().path("url");
        dash.signIn(url);
        assertEquals(appName, dash.text("tenant"));
    }

    /** The API log of a request appears once its answer has been sent (written in batches, off the request path). */
    void awaitLogged(String requestId) {
        await("the API log of " + requestId, () -> {
            dash.open("/dashboard/api_logs?request_id=" + requestId);
            return dash.driver.findElements(By.cssSelector("tr.log")).size() == 1;
        });
    }

    @Test
    void aRequestFoundByItsRequestIdLeadsToItsEventWhichIsResent() throws Exception {
        signIn();
        dash.open("/dashboard/endpoints");
        dash.driver.findElement(By.id("url")).sendKeys("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks");
        dash.driver.findElement(By.id("event-payment_intent.created")).click();
        dash.submit("create-button");
        assertTrue(dash.text("secret").startsWith("whsec_"));
        dash.screenshot("endpoint-secret");

        var created = as(key).body(Map.of("amount", "250", "currency", "HTG")).post("/api/v1/payment_intents")
                .then().statusCode(201).extract();
        String requestId = created.header(TestApi.REQUEST_ID);
        String intent = created.path("id");
        await("the first delivery", () -> eventIds.size() == 1);
        as(key).body(Map.of("amount", "-1", "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(400);

        awaitLogged(requestId);
        WebElement row = dash.driver.findElement(By.cssSelector("tr.log"));
        assertEquals("201", row.findElement(By.cssSelector("td.code")).getText());
        assertTrue(row.getText().contains("/api/v1/payment_intents"));
        dash.screenshot("api-logs");
        row.findElement(By.linkText(requestId)).click();
        new WebDriverWait(dash.driver, Duration.ofSeconds(15)).until(d -> !d.findElements(By.id("response-body")).isEmpty());
        assertTrue(dash.text("response-body").contains(intent));
        dash.driver.findElement(By.cssSelector("a.event-link")).click();
        new WebDriverWait(dash.driver, Duration.ofSeconds(15)).until(d -> !d.findElements(By.id("resend")).isEmpty());
        String eventId = dash.text("event-id");
        assertEquals(eventIds.get(0), eventId);
        dash.submit("resend");
        assertFalse(dash.driver.findElements(By.id("done")).isEmpty());
        await("the resent event", () -> eventIds.size() == 2);
        assertEquals(eventId, eventIds.get(1), "the same event id");
        dash.screenshot("event-resent");

        // the filters: by status and by path
        dash.open("/dashboard/api_logs?status=400");
        await("the 400 logged", () -> {
            dash.open("/dashboard/api_logs?status=400&path=/api/v1/payment_intents");
            return dash.driver.findElements(By.cssSelector("tr.log")).size() == 1;
        });
        dash.open("/dashboard/api_logs?path=/api/v1/refunds");
        assertFalse(dash.driver.findElements(By.id("no-logs")).isEmpty());
    }

    @Test
    void secretsAreMaskedInTheApiLogsAndAnotherApplicationSeesNoneOfThem() throws Exception {
        var r = as(key).body(Map.of("url", "https://hooks.example.com/x")).post("/api/v1/webhook_endpoints").then().statusCode(201).extract();
        String secret = r.path("secret");
        String requestId = r.header(TestApi.REQUEST_ID);
        signIn();
        awaitLogged(requestId);
        dash.driver.findElement(By.linkText(requestId)).click();
        new WebDriverWait(dash.driver, Duration.ofSeconds(15)).until(d -> !d.findElements(By.id("response-body")).isEmpty());
        String body = dash.text("response-body");
        assertFalse(body.contains(secret), "the secret never reaches the API logs");
        assertTrue(body.contains("\"secret\":\"••••••\""), body);
        assertTrue(dash.text("request-body").contains("https://hooks.example.com/x"), dash.text("request-body"));
        String seq = URI.create(dash.driver.getCurrentUrl()).getPath().replaceAll(".*/", "");

        appName = "Lòt Boutik";
        app = TestApi.application(appName);
        signIn();
        dash.open("/dashboard/api_logs?request_id=" + requestId);
        assertFalse(dash.driver.findElements(By.id("no-logs")).isEmpty());
        dash.open("/dashboard/api_logs/" + seq);
        assertEquals("404", dash.driver.findElement(By.id("title")).getText().replaceAll("\\D", ""));
        dash.screenshot("other-tenant-404");
    }

    @Test
    void recoverAWindowOfAnEndpointResendsEachDeadDeliveryOnce() throws Exception {
        answer.set(500);
        String endpoint = as(key).body(Map.of("url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks",
                "events", List.of("payment_intent.created"))).post("/api/v1/webhook_endpoints").then().statusCode(201).extract().path("id");
        Instant start = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS); // as a form gives it
        for (String amount : List.of("100", "200")) {
            as(key).body(Map.of("amount", amount, "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(201);
        }
        await("two first attempts", () -> eventIds.size() == 2);
        List<String> events = List.copyOf(new java.util.LinkedHashSet<>(eventIds));
        int made = 1;
        awaitRecorded(events, made);
        for (Duration step : List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24), Duration.ofHours(24))) {
            // the clock moves only once every attempt so far is recorded: moving it while the background loop still
            // holds a send would end that lease on the test clock and shift the schedule of that delivery
            clock.advance(step.plusSeconds(1));
            Deliveries.drainUntilIdle(runner, policy);
            made++;
            int expected = made;
            await("attempt " + expected, () -> eventIds.size() == 2 * expected);
            awaitRecorded(events, expected);
        }
        await("every attempt made", () -> eventIds.size() == 18);
        answer.set(200);

        signIn();
        dash.open("/dashboard/endpoints");
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
        for (var field : dash.driver.findElements(By.cssSelector("#recover-" + endpoint + " input[type=datetime-local]"))) {
            Instant at = "since".equals(field.getAttribute("name")) ? start.minusSeconds(60) : start.plus(Duration.ofMinutes(30));
            dash.driver.executeScript("arguments[0].value = arguments[1]", field, local.format(at));
        }
        dash.submit("recover-button-" + endpoint);
        assertEquals("2", dash.text("recovered-count"));
        dash.screenshot("recovered");
        await("both resent", () -> eventIds.size() == 20);

        // the same window through the API: nothing is sent a second time
        String window = "{\"since\":\"" + start.minusSeconds(60) + "\",\"until\":\"" + start.plus(Duration.ofMinutes(30)) + "\"}";
        as(key).body(window).post("/api/v1/webhook_endpoints/" + endpoint + "/recover").then().statusCode(200)
                .body("resent", equalTo(2)).body("replayed", equalTo(true));
        as(key).body("{\"since\":\"later\",\"until\":\"x\"}").post("/api/v1/webhook_endpoints/" + endpoint + "/recover")
                .then().statusCode(400).body("error.param", equalTo("since"));
        as(TestApi.key(TestApi.application("Lòt"), "test", null)).body(window)
                .post("/api/v1/webhook_endpoints/" + endpoint + "/recover").then().statusCode(404);
        Deliveries.drainUntilIdle(runner, policy);
        assertEquals(20, eventIds.size());
    }

    /** Both events' deliveries have recorded {@code attempts} failed attempts (no send of theirs is in flight). */
    void awaitRecorded(List<String> events, int attempts) {
        await(attempts + " attempts recorded", () -> events.stream().allMatch(e -> Integer.valueOf(attempts).equals(
                as(key).get("/api/v1/events/" + e).then().extract().path("deliveries[0].failed_attempts"))));
    }

    boolean verifies(Signed delivery, String secret) {
        return new WebhookVerifier(SignatureScheme.CHECKOUT, List.of(secret), Duration.ofMinutes(5), clock)
                .verify(Map.of("Checkout-Signature", delivery.signature(), "Checkout-Timestamp", delivery.timestamp()),
                        delivery.body()).valid();
    }

    @Test
    void rotatingAnEndpointsSecretSignsWithBothDuringTheOverlap() throws Exception {
        signIn();
        dash.open("/dashboard/endpoints?lang=ht");
        dash.driver.findElement(By.id("url")).sendKeys("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks");
        dash.driver.findElement(By.id("event-payment_intent.created")).click();
        dash.submit("create-button");
        String first = dash.text("secret");
        dash.driver.findElement(By.id("continue")).click();
        new WebDriverWait(dash.driver, Duration.ofSeconds(15)).until(d -> !d.findElements(By.cssSelector("button[id^=rotate-]")).isEmpty());
        String endpoint = dash.driver.findElement(By.cssSelector("button[id^=rotate-]")).getAttribute("id").substring("rotate-".length());
        dash.submit("rotate-" + endpoint);
        String second = dash.text("secret");
        assertTrue(second.startsWith("whsec_") && !second.equals(first), second);
        Instant overlapEnd = Instant.parse(dash.text("overlap-until"));
        assertEquals(clock.instant().plus(Duration.ofHours(24)).getEpochSecond() / 60, overlapEnd.getEpochSecond() / 60);
        dash.screenshot("rotated-creole");

        as(key).body(Map.of("amount", "250", "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(201);
        await("the delivery", () -> signed.size() == 1);
        Signed delivery = signed.get(0);
        assertEquals(2, delivery.signature().split(",").length, delivery.signature());
        assertTrue(verifies(delivery, second), "signed with the new secret");
        assertTrue(verifies(delivery, first), "and with the previous one during the overlap");
        as(key).post("/api/v1/webhook_endpoints/" + endpoint + "/rotate_secret").then().statusCode(409)
                .body("error.code", equalTo("ROTATION_IN_PROGRESS"));

        clock.advance(Duration.ofHours(25));
        as(key).body(Map.of("amount", "300", "currency", "HTG")).post("/api/v1/payment_intents").then().statusCode(201);
        await("the delivery after the overlap", () -> signed.size() == 2);
        assertEquals(1, signed.get(1).signature().split(",").length, "the previous secret no longer signs");
        assertTrue(verifies(signed.get(1), second));
    }
}
