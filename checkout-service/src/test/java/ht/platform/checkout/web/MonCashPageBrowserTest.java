package ht.platform.checkout.web;

import ht.platform.checkout.TestApi;
import ht.platform.support.testing.ChromiumSession;
import ht.platform.support.testing.MonCashStandIn;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A live customer in a real headless Chromium: the hosted page, MonCash's page (the stand-in), and back. */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
class MonCashPageBrowserTest {

    @RegisterExtension
    static final ChromiumSession BROWSER = new ChromiumSession(null);

    @TestHTTPResource("/")
    URL base;

    @Test
    void liveCustomerPaysOnMonCashAndComesBackToAPaidPage() {
        WebDriver driver = BROWSER.driver();
        String root = base.toString().replaceAll("/$", "");
        MonCashStandIn.sandbox().returnUrl(MonCashStandIn.CLIENT_ID, URI.create(root + "/pay/moncash/return"));
        String key = TestApi.key(TestApi.application("Live page " + System.nanoTime()), "live", null);
        var created = as(key).body(Map.of("amount", "1250", "currency", "HTG", "description", "Commande 7",
                        "return_url", "https://boutique.example/merci"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract();
        String id = created.path("id");
        String checkoutUrl = created.path("checkout_url");
        driver.get(root + checkoutUrl.substring(checkoutUrl.indexOf("/pay/")));
        assertTrue(driver.findElements(By.id("test-mode")).isEmpty(), "a live page offers no simulated outcome");
        driver.findElement(By.id("method-moncash")).click();
        driver.findElement(By.id("pay-button")).click();

        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("moncash-pay")));
        assertTrue(driver.getCurrentUrl().startsWith(MonCashStandIn.sandbox().gatewayBase() + "/Payment/Redirect?token="));
        assertEquals("1250 HTG", driver.findElement(By.id("moncash-amount")).getText());
        as(key).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("requires_action"));

        driver.findElement(By.id("moncash-pay")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertTrue(driver.getCurrentUrl().startsWith(root + "/pay/pay_cs_"), driver.getCurrentUrl());
        assertEquals("succeeded", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertEquals("Paiement reçu. Merci !", driver.findElement(By.id("status-text")).getText());
        assertEquals("https://boutique.example/merci?payment_intent=" + id,
                driver.findElement(By.id("return-link")).getAttribute("href"));
        as(key).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("succeeded"))
                .body("amount_received", equalTo("1250.000000"));
    }
}
