package ht.platform.kyc.web.dashboard;

import ht.platform.support.testing.Deliveries;
import com.stripe.net.Webhook;
import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.Receiver;
import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.support.outbox.DeliveryRunner;
import ht.platform.support.testing.DashboardBrowser;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.testing.Waiting;
import ht.platform.support.time.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.BooleanSupplier;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kyc client's developer in a real headless Chromium: the verifications list, a failed webhook delivery seen with its
 * attempts and resent once the receiver is fixed, the settings (webhook address, rotation with both signatures), the
 * recovery of a window, and nothing of another application.
 */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class KycDashboardBrowserTest {

    static final Duration BOUND = Duration.ofSeconds(20);
    static final List<Duration> SCHEDULE = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30),
            Duration.ofHours(2), Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24), Duration.ofHours(24));

    @RegisterExtension
    static final DashboardBrowser dash = new DashboardBrowser("kyc");

    @Inject
    MovableClock clock;

    @Inject
    DeliveryRunner runner;

    @Inject
    KycDeliveryPolicy policy;

    /** A fresh receiver for each test (PlatformHarness). */
    Receiver rx;

    void signIn(String app) {
        String url = given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body("{\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + app + "/dashboard_links").then().statusCode(201).extract().path("url");
        dash.signIn(url);
        assertEquals("Test app", dash.text("tenant"));
    }

    String status() {
        return dash.driver.findElement(By.cssSelector("#status .state")).getAttribute("data-status");
    }

    static void await(String what, BooleanSupplier condition) {
        Waiting.until(what, BOUND, condition);
    }

    /** The event id of the verification's first event (verification.created); later events (expiry) have others. */
    String createdEvent(String verification) {
        return rx.await(h -> h.text().contains(verification) && h.text().contains("\"verification.created\"")).headers().get("Kyc-Event-Id");
    }

    long hitsOf(String event) {
        return rx.received.stream().filter(h -> event.equals(h.headers().get("Kyc-Event-Id"))).count();
    }

    /**
     * Moves the clock through the whole retry schedule, each step making the next retry due and sending it, then on
     * by a day at a time while {@code dead} is not yet true (an attempt the background loop had leased during a drain
     * is recorded a step later).
     */
    void runTheWholeRetrySchedule(BooleanSupplier dead) throws InterruptedException {
        for (Duration step : SCHEDULE) {
            clock.advance(step.plusSeconds(1));
            Deliveries.drainUntilIdle(runner, policy);
        }
        for (int day = 0; day < 10 && !dead.getAsBoolean(); day++) {
            clock.advance(Duration.ofHours(25));
            Deliveries.drainUntilIdle(runner, policy);
        }
        await("dead after the whole schedule", dead);
    }

    /** How many of the application's verification.created deliveries are dead. */
    static long deadCreated(String app) {
        return given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + app + "/deliveries?status=dead")
                .then().statusCode(200).extract().jsonPath().getList("data.event_type", String.class).stream()
                .filter("verification.created"::equals).count();
    }

    boolean signedWith(Receiver.Received hit, String secret) {
        try {
            Webhook.constructEvent(hit.text(), hit.headers().get("Kyc-Signature"), secret, Long.MAX_VALUE / 2);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void verificationsShowStatusReasonsTimesAndTheExternalUserOnly() throws Exception {
        Fixtures.App app = Fixtures.app(null, null);
        String rejected = Fixtures.create(app.testKey(), "client-0042");
        Fixtures.as(app.testKey()).body("{\"outcome\":\"rejected\",\"reason_codes\":[\"document_expired\"]}")
                .post("/api/v1/test_helpers/verifications/" + rejected + "/complete").then().statusCode(200);
        String open = Fixtures.create(app.testKey(), "client-0043");
        Fixtures.App other = Fixtures.app(null, null);
        String foreign = Fixtures.create(other.testKey(), "someone-else");

        signIn(app.id());
        assertEquals("fr", dash.driver.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Vérifications", dash.text("title"));
        List<WebElement> rows = dash.driver.findElements(By.cssSelector("tr.verification"));
        assertEquals(List.of(open, rejected), rows.stream().map(r -> r.getAttribute("data-id")).toList(), "newest first");
        WebElement row = rows.get(1);
        assertEquals("client-0042", row.findElement(By.cssSelector(".external-user")).getText());
        assertEquals("rejected", row.findElement(By.cssSelector(".state")).getAttribute("data-status"));
        assertEquals("document_expired", row.findElement(By.cssSelector(".reasons")).getText().strip());
        assertFalse(dash.driver.getPageSource().contains(foreign), "another application's verification");
        dash.screenshot("verifications");

        dash.open("/dashboard/verifications?status=rejected&lang=en");
        assertEquals(1, dash.driver.findElements(By.cssSelector("tr.verification")).size());
        assertEquals("Verifications", dash.text("title"));
        dash.open("/dashboard/verifications?status=nonsense");
        assertTrue(dash.driver.getPageSource().contains("nonsense"), "a bad filter is a 400 page naming it");
    }

    @Test
    void aFailedDeliveryIsSeenThenResentAndAnotherTenantsDeliveryIs404() throws Exception {
        rx.status.set(500);
        Fixtures.App app = Fixtures.app(null, rx.url());
        String event = createdEvent(Fixtures.create(app.testKey(), "client-7"));
        await("the first attempt", () -> hitsOf(event) == 1);
        signIn(app.id());
        dash.open("/dashboard/deliveries");
        await("the attempt recorded", () -> {
            dash.driver.navigate().refresh();
            return dash.driver.findElements(By.cssSelector("tr.delivery td.code")).stream().anyMatch(td -> td.getText().equals("500"));
        });
        String delivery = dash.driver.findElement(By.cssSelector("tr.delivery")).getAttribute("data-id");
        dash.open("/dashboard/deliveries/" + delivery);
        WebElement attempt = dash.driver.findElement(By.cssSelector("#attempts tbody tr"));
        assertEquals("500", attempt.findElement(By.cssSelector("td.code")).getText());
        assertFalse(attempt.findElement(By.cssSelector("td.error")).getText().isBlank(), "the attempt's error is shown");
        assertTrue(dash.driver.findElements(By.id("resend")).isEmpty(), "a delivery still being retried has no Resend");
        dash.screenshot("failed-attempt");

        runTheWholeRetrySchedule(() -> deadCreated(app.id()) == 1);
        signIn(app.id()); // the session ended while the clock ran through the schedule
        dash.open("/dashboard/deliveries/" + delivery);
        assertEquals("dead", status());
        assertEquals(SCHEDULE.size() + 1, dash.driver.findElements(By.cssSelector("#attempts tbody tr")).size());
        rx.status.set(200);
        dash.submit("resend");
        assertTrue(dash.text("done").contains("remise en file"), dash.text("done"));
        await("the resent delivery", () -> hitsOf(event) == SCHEDULE.size() + 2);
        await("delivered", () -> {
            dash.open("/dashboard/deliveries/" + delivery);
            return "delivered".equals(status());
        });
        Receiver.Received last = rx.received.stream().filter(h -> event.equals(h.headers().get("Kyc-Event-Id"))).reduce((x, y) -> y).orElseThrow();
        assertTrue(signedWith(last, app.testWebhookSecret()), "the resent event, signed with the test secret");
        dash.screenshot("delivered");

        // another application's delivery, by id, from this session: 404
        try (Receiver otherRx = new Receiver()) {
            Fixtures.App other = Fixtures.app(null, otherRx.url());
            Fixtures.create(other.testKey(), "someone-else");
            otherRx.await(h -> true);
            String foreign = given().header("Authorization", Fixtures.ADMIN).get("/admin/v1/applications/" + other.id() + "/deliveries")
                    .then().statusCode(200).extract().path("data[0].id");
            dash.open("/dashboard/deliveries/" + foreign);
            assertEquals("404", dash.driver.findElement(By.id("error-status")).getText());
            assertFalse(dash.driver.getPageSource().contains("someone-else"));
            dash.open("/dashboard/deliveries");
            assertFalse(dash.driver.getPageSource().contains(foreign));
        }
        // the live mode of the same application has none of these test deliveries
        dash.submit("switch-mode");
        dash.open("/dashboard/deliveries");
        assertFalse(dash.driver.findElements(By.id("no-deliveries")).isEmpty(), "live mode sees no test delivery");
    }

    @Test
    void settingsChangeTheAddressAndARotationSignsWithBothSecrets() throws Exception {
        Fixtures.App app = Fixtures.app(null, null);
        signIn(app.id());
        dash.open("/dashboard/settings?lang=ht");
        assertEquals("Reglaj", dash.text("title"));
        assertTrue(dash.driver.findElement(By.id("return-urls")).getAttribute("value").contains("https://client.example/done"));
        WebElement urls = dash.driver.findElement(By.id("return-urls"));
        urls.clear();
        urls.sendKeys("https://client.example/done\nhttps://client.example/other");
        dash.driver.findElement(By.id("webhook-url")).sendKeys(rx.url());
        dash.submit("save");
        // a new address gets a new secret, shown once
        String set = dash.text("secret");
        assertTrue(set.startsWith("whsec_") && !set.equals(app.testWebhookSecret()), set);
        dash.open("/dashboard/settings?lang=ht");
        assertEquals(rx.url(), dash.driver.findElement(By.id("webhook-url")).getAttribute("value"));
        assertTrue(dash.driver.findElement(By.id("return-urls")).getAttribute("value").contains("https://client.example/other"));
        dash.screenshot("settings-creole");

        String first = Fixtures.create(app.testKey(), "client-8");
        Receiver.Received before = rx.await(h -> h.text().contains(first));
        assertTrue(signedWith(before, set));
        assertFalse(signedWith(before, app.testWebhookSecret()), "the secret from before the address is no receiver's");

        dash.submit("rotate");
        String rotated = dash.text("secret");
        assertTrue(rotated.startsWith("whsec_") && !rotated.equals(set), rotated);
        Instant overlapEnd = Instant.parse(dash.text("overlap-until"));
        assertTrue(overlapEnd.isAfter(clock.instant().plus(Duration.ofHours(23))), "the old secret signs for 24 h");
        dash.screenshot("rotated");

        String second = Fixtures.create(app.testKey(), "client-9");
        Receiver.Received after = rx.await(h -> h.text().contains(second));
        assertEquals(2, after.headers().get("Kyc-Signature").split("v1=").length - 1, after.headers().get("Kyc-Signature"));
        assertTrue(signedWith(after, rotated), "signed with the new secret");
        assertTrue(signedWith(after, set), "and with the old one during the overlap");

        dash.open("/dashboard/settings?lang=fr");
        dash.driver.findElement(By.id("webhook-url")).clear();
        dash.driver.findElement(By.id("webhook-url")).sendKeys("ftp://nope.example");
        dash.submit("save");
        assertEquals("400", dash.text("error-status"), "a refused address is a 400 page, nothing saved");
        dash.open("/dashboard/settings");
        assertEquals(rx.url(), dash.driver.findElement(By.id("webhook-url")).getAttribute("value"));
    }

    @Test
    void recoverAWindowResendsEachDeadDeliveryOnce() throws Exception {
        rx.status.set(500);
        Fixtures.App app = Fixtures.app(null, rx.url());
        Instant start = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS); // as a form gives it
        String a = createdEvent(Fixtures.create(app.testKey(), "client-a"));
        String b = createdEvent(Fixtures.create(app.testKey(), "client-b"));
        runTheWholeRetrySchedule(() -> deadCreated(app.id()) == 2);
        rx.status.set(200);
        long before = hitsOf(a) + hitsOf(b);
        BooleanSupplier bothOnceMore = () -> hitsOf(a) + hitsOf(b) == before + 2;

        signIn(app.id());
        dash.open("/dashboard/settings");
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
        for (int press = 0; press < 2; press++) {
            dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("since")),
                    local.format(start.minusSeconds(60)));
            dash.driver.executeScript("arguments[0].value = arguments[1]", dash.driver.findElement(By.id("until")),
                    local.format(start.plus(Duration.ofMinutes(30))));
            dash.submit("recover-button");
            if (press == 0) {
                assertEquals("2", dash.text("recovered-count"));
                dash.screenshot("recovered");
                await("both delivered", bothOnceMore);
            } else {
                assertTrue(dash.text("done").contains("déjà"), dash.text("done"));
            }
        }
        Deliveries.drainUntilIdle(runner, policy);
        assertEquals(before + 2, hitsOf(a) + hitsOf(b), "the same window twice resends nothing twice");
    }
}
