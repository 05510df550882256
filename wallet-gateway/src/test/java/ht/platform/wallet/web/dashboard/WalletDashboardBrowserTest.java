package ht.platform.wallet.web.dashboard;

import ht.platform.support.testing.Deliveries;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.testing.DashboardBrowser;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.support.testing.Receiver;
import ht.platform.wallet.events.WalletDeliveryPolicy;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.WebhookVerifier;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A merchant's developer in a real headless Chromium, doing every webhook action the document names, without curl. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class WalletDashboardBrowserTest {

    static final Duration BOUND = Duration.ofSeconds(20);
    static final List<Duration> SCHEDULE = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
            Duration.ofHours(1), Duration.ofHours(6), Duration.ofHours(24));

    @RegisterExtension
    static final DashboardBrowser dash = new DashboardBrowser("wallet");

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    WalletDeliveryPolicy store;

    String project;
    String key;
    /** A fresh receiver for each test (PlatformHarness). */
    Receiver rx;

    @BeforeEach
    void setUp() throws Exception {
        project = TestApi.project("Boutique Lakay");
        key = TestApi.key(project, "test");
    }

    /** Opens a fresh operator link and presses the button, as the merchant would. */
    void signIn() {
        String url = given().header("Authorization", TestApi.ADMIN).contentType(ContentType.JSON).body("{}")
                .post("/admin/v1/projects/" + project + "/dashboard_links").then().statusCode(201).extract().path("url");
        dash.signIn(url);
        assertEquals("Boutique Lakay", dash.text("tenant"));
    }

    void drain() {
        Deliveries.drainUntilIdle(runner, store);
    }

    /** Registers the receiver through the register form; returns {id, secret} as the page shows them. */
    String[] registerInTheBrowser(String... kinds) {
        dash.open("/dashboard/webhooks");
        dash.driver.findElement(By.id("url")).sendKeys(rx.url());
        for (String kind : kinds) {
            dash.driver.findElement(By.id("event-" + kind)).click();
        }
        dash.submit("register-button");
        String secret = dash.text("secret");
        assertTrue(secret.startsWith("whsec_"), secret);
        dash.driver.findElement(By.id("continue")).click();
        new WebDriverWait(dash.driver, BOUND).until(d -> !d.findElements(By.id("webhook-id")).isEmpty());
        return new String[] {dash.text("webhook-id"), secret};
    }

    String onlyDelivery(String webhook) {
        return as(key).get("/api/v1/webhooks/" + webhook + "/deliveries").then().statusCode(200).extract().path("data[0].id");
    }

    String deliveryStatus(String delivery) {
        return as(key).get("/api/v1/webhook_deliveries/" + delivery).then().statusCode(200).extract().path("status");
    }

    /**
     * Moves the clock through the whole retry schedule: the delivery is abandoned after its 7th failure. An attempt the
     * background loop had leased during a drain is recorded a step later, so the clock goes on a day at a time until then.
     */
    void failUntilAbandoned(String... deliveries) throws InterruptedException {
        for (int i = 0; i < SCHEDULE.size(); i++) {
            clock.advance(SCHEDULE.get(i).plusSeconds(1));
            drain();
        }
        for (int day = 0; day < 10 && !allAbandoned(deliveries); day++) {
            clock.advance(Duration.ofHours(25));
            drain();
        }
        Receiver.await("abandoned", BOUND, () -> allAbandoned(deliveries));
    }

    boolean allAbandoned(String... deliveries) {
        return java.util.Arrays.stream(deliveries).allMatch(d -> "abandoned".equals(deliveryStatus(d)));
    }

    boolean verifies(Receiver.Received r, String secret) {
        return new WebhookVerifier(SignatureScheme.GATEWAY, List.of(secret), Duration.ofMinutes(5), clock)
                .verify(r::header, r.body()).valid();
    }

    @Test
    void aFailedDeliveryIsSeenThenResentOnceTheReceiverIsFixed() throws Exception {
        rx.status.set(500);
        signIn();
        dash.screenshot("signed-in");
        assertEquals("fr", dash.driver.findElement(By.tagName("html")).getAttribute("lang"));
        assertTrue(dash.text("test-banner").contains("MODE TEST"));
        String[] wh = registerInTheBrowser("payment.succeeded");
        dash.screenshot("address");
        String payment = TestApi.payment(key, 1000);
        as(key).post("/api/v1/test_helpers/payments/" + payment + "/succeed").then().statusCode(200);
        Receiver.await("the first attempt", BOUND, () -> rx.received.size() == 1);
        String delivery = onlyDelivery(wh[0]);
        Receiver.await("the attempt recorded", BOUND, () -> !as(key).get("/api/v1/webhook_deliveries/" + delivery)
                .then().extract().jsonPath().getList("attempts").isEmpty());

        dash.open("/dashboard/deliveries?status=pending");
        dash.driver.findElement(By.linkText(delivery)).click();
        new WebDriverWait(dash.driver, BOUND).until(d -> !d.findElements(By.id("attempts")).isEmpty());
        WebElement attempt = dash.driver.findElement(By.cssSelector("#attempts tbody tr"));
        assertEquals("500", attempt.findElement(By.cssSelector("td.code")).getText());
        assertTrue(!attempt.findElement(By.cssSelector("td.error")).getText().isBlank(), "the attempt's error is shown");
        assertTrue(attempt.findElement(By.cssSelector("code.excerpt")).getText().contains("\"status\":500"));
        assertTrue(dash.driver.findElements(By.id("resend")).isEmpty(), "a delivery still being retried has no Resend");
        dash.screenshot("failed-attempt");

        failUntilAbandoned(delivery);
        dash.open("/dashboard/deliveries/" + delivery);
        assertTrue(!dash.driver.findElements(By.id("needed")).isEmpty(), "31 hours later the session has ended");
        signIn();
        dash.open("/dashboard/deliveries/" + delivery);
        assertEquals("abandoned", dash.driver.findElement(By.cssSelector("#status .state")).getAttribute("data-status"));
        assertEquals(7, dash.driver.findElements(By.cssSelector("#attempts tbody tr")).size());

        rx.status.set(200);
        dash.submit("resend");
        assertTrue(dash.text("done").contains("remise en file"));
        Receiver.await("the resent delivery", BOUND, () -> rx.received.size() == 8);
        Receiver.await("delivered", BOUND, () -> "delivered".equals(deliveryStatus(delivery)));
        dash.open("/dashboard/deliveries/" + delivery);
        assertEquals("delivered", dash.driver.findElement(By.cssSelector("#status .state")).getAttribute("data-status"));
        assertEquals("200", dash.driver.findElements(By.cssSelector("#attempts tbody tr td.code")).get(7).getText());
        assertTrue(verifies(rx.received.get(7), wh[1]), "signed with the secret the page showed");
        assertEquals(rx.received.get(0).header("X-Gateway-Event-ID"), rx.received.get(7).header("X-Gateway-Event-ID"));
        dash.screenshot("delivered");

        // the filters: by address, status and event kind
        dash.open("/dashboard/deliveries?webhook=" + wh[0] + "&status=abandoned");
        assertTrue(!dash.driver.findElements(By.id("no-deliveries")).isEmpty());
        dash.open("/dashboard/deliveries?webhook=" + wh[0] + "&status=delivered&type=payment.succeeded");
        assertEquals(1, dash.driver.findElements(By.cssSelector("tr.delivery")).size());
    }

    @Test
    void twentyFailuresPauseTheAddressAndReactivateResumesIt() throws Exception {
        rx.status.set(503);
        signIn();
        String[] wh = registerInTheBrowser("payment.created");
        for (int i = 0; i < 20; i++) {
            TestApi.payment(key, 100 + i);
        }
        Receiver.await("20 failures", BOUND, () -> "paused".equals(as(key).get("/api/v1/webhooks/" + wh[0]).then()
                .extract().path("status")));
        clock.advance(Duration.ofMinutes(2));
        drain();
        assertEquals(20, rx.received.size(), "a paused address receives nothing");
        dash.open("/dashboard/webhooks/" + wh[0]);
        assertEquals("paused", dash.driver.findElement(By.cssSelector("#status .state")).getAttribute("data-status"));
        assertEquals("20", dash.text("failures"));
        dash.screenshot("paused");

        rx.status.set(200);
        dash.submit("reactivate");
        assertEquals("active", dash.driver.findElement(By.cssSelector("#status .state")).getAttribute("data-status"));
        assertEquals("0", dash.text("failures"));
        assertTrue(dash.driver.findElements(By.id("reactivate")).isEmpty());
        Receiver.await("the held deliveries", BOUND, () -> rx.received.size() >= 40);
        dash.screenshot("reactivated");
    }

    @Test
    void sendATestThenRotateAndBothSignaturesArrive() throws Exception {
        signIn();
        dash.open("/dashboard/webhooks?lang=en");
        assertEquals("en", dash.driver.findElement(By.tagName("html")).getAttribute("lang"));
        String[] wh = registerInTheBrowser("payment.created");
        assertEquals("en", dash.driver.findElement(By.tagName("html")).getAttribute("lang"), "the language is remembered");
        dash.submit("send-test");
        assertEquals("A webhook.ping event was queued for this address.", dash.text("done"));
        Receiver.await("the ping", BOUND, () -> rx.ofType("webhook.ping").size() == 1);
        Receiver.Received ping = rx.ofType("webhook.ping").get(0);
        assertTrue(verifies(ping, wh[1]));
        assertTrue(ping.text().contains("\"webhook_id\":\"" + wh[0] + "\""));

        dash.submit("rotate");
        String newSecret = dash.text("secret");
        assertTrue(newSecret.startsWith("whsec_") && !newSecret.equals(wh[1]));
        Instant overlapEnd = Instant.parse(dash.text("overlap-until"));
        assertEquals(clock.instant().plus(Duration.ofHours(24)).truncatedTo(ChronoUnit.MINUTES),
                overlapEnd.truncatedTo(ChronoUnit.MINUTES));
        dash.screenshot("rotated");
        dash.driver.findElement(By.id("continue")).click();
        new WebDriverWait(dash.driver, BOUND).until(d -> !d.findElements(By.id("send-test")).isEmpty());
        dash.submit("send-test");
        Receiver.await("the second ping", BOUND, () -> rx.ofType("webhook.ping").size() == 2);
        Receiver.Received second = rx.ofType("webhook.ping").get(1);
        assertTrue(verifies(second, newSecret), "signed with the new secret");
        assertTrue(verifies(second, wh[1]), "and with the old one during the overlap");
        assertEquals(2, second.header("X-Gateway-Signature").split(",").length >= 2 ? 2 : 1,
                "two signatures: " + second.header("X-Gateway-Signature"));

        dash.open("/dashboard/webhooks?lang=ht");
        assertEquals("Adrès webhook", dash.text("title"));
        dash.screenshot("creole");
    }

    @Test
    void recoverAWindowResendsEachFailedDeliveryOnce() throws Exception {
        rx.status.set(500);
        String webhook = as(key).body(Map.of("url", rx.url(), "events", List.of("payment.created")))
                .post("/api/v1/webhooks").then().statusCode(201).extract().path("id");
        Instant start = clock.instant();
        TestApi.payment(key, 100);
        TestApi.payment(key, 200);
        Receiver.await("two first attempts", BOUND, () -> rx.received.size() == 2);
        List<String> deliveries = as(key).get("/api/v1/webhooks/" + webhook + "/deliveries").then().extract().path("data.id");
        failUntilAbandoned(deliveries.toArray(String[]::new));
        int before = rx.received.size();
        rx.status.set(200);

        signIn();
        dash.open("/dashboard/webhooks/" + webhook);
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
        dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("since")),
                local.format(start.minusSeconds(60)));
        dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("until")),
                local.format(start.plus(Duration.ofMinutes(30))));
        dash.submit("recover-button");
        assertEquals("2", dash.text("recovered-count"));
        dash.screenshot("recovered");
        Receiver.await("both delivered", BOUND, () -> deliveries.stream().allMatch(d -> "delivered".equals(deliveryStatus(d))));
        assertEquals(before + 2, rx.received.size());

        // pressing it again (same window) resends nothing
        dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("since")),
                local.format(start.minusSeconds(60)));
        dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("until")),
                local.format(start.plus(Duration.ofMinutes(30))));
        dash.submit("recover-button");
        assertTrue(dash.text("done").contains("déjà"), dash.text("done"));
        drain();
        assertEquals(before + 2, rx.received.size());
    }
}
