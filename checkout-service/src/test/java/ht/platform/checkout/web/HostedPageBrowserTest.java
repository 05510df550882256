package ht.platform.checkout.web;

import ht.platform.checkout.TestApi;
import io.quarkus.test.common.http.TestHTTPResource;
import ht.platform.support.testing.ChromiumSession;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URL;
import java.time.Duration;
import java.util.Map;

import static ht.platform.checkout.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A person's path through the hosted page in a real headless Chromium, in French, English and Haitian Creole. */
@QuarkusTest
class HostedPageBrowserTest {

    @RegisterExtension
    static final ChromiumSession BROWSER = new ChromiumSession(null);
    static WebDriver driver;

    @TestHTTPResource("/")
    URL base;

    String key;

    @BeforeEach
    void setUp() {
        driver = BROWSER.driver();
        key = TestApi.key(TestApi.application("Page " + System.nanoTime()), "test", null);
    }

    String pagePath(String checkoutUrl) {
        return base.toString().replaceAll("/$", "") + checkoutUrl.substring(checkoutUrl.indexOf("/pay/"));
    }

    String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    @Test
    void frenchCustomerPassesTheVerificationAndPays() {
        var created = as(key).body(Map.of("amount", "250", "currency", "HTG", "description", "Commande 42",
                        "return_url", "http://localhost/boutique/merci"))
                .post("/api/v1/payment_intents").then().statusCode(201).extract();
        String id = created.path("id");
        driver.get(pagePath(created.path("checkout_url")));
        assertEquals("fr", driver.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Paiement", text("title"));
        assertEquals("250.000000 HTG", text("amount"));
        assertEquals("Commande 42", text("description"));
        assertTrue(driver.getPageSource().contains("Carte de test"));
        assertTrue(text("test-mode").startsWith("Mode test"));

        driver.findElement(By.id("method-test_card")).click();
        driver.findElement(By.id("outcome-requires_action")).click();
        driver.findElement(By.id("pay-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("action-step")));
        assertTrue(text("action-step").contains("Vérification requise"));
        as(key).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("requires_action"));

        driver.findElement(By.id("approve-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertEquals("succeeded", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertEquals("Paiement reçu. Merci !", text("status-text"));
        assertEquals("http://localhost/boutique/merci?payment_intent=" + id,
                driver.findElement(By.id("return-link")).getAttribute("href"));
        // the server-side read is the truth
        as(key).get("/api/v1/payment_intents/" + id).then().body("status", equalTo("succeeded")).body("amount_received", equalTo("250.000000"));
    }

    @Test
    void englishCustomerOpensALinkAndIsDeclinedThenAnotherVisitIsPending() {
        String url = as(key).body(Map.of("amount", "19.99", "currency", "USD", "description", "T-shirt"))
                .post("/api/v1/payment_links").then().statusCode(201).extract().path("url");
        String linkPath = base.toString().replaceAll("/$", "") + url.substring(url.indexOf("/pay/l/")) + "?lang=en";
        // the link's page shows the payment and creates nothing; its button opens the payment
        driver.get(linkPath);
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("link-form")));
        assertEquals("19.990000 USD", text("amount"));
        assertEquals("T-shirt", text("description"));
        as(key).get("/api/v1/payment_intents").then().body("data.size()", equalTo(0));
        driver.findElement(By.id("link-pay-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("pay-form")));
        String firstPage = driver.getCurrentUrl();
        assertTrue(firstPage.contains("/pay/pay_cs_"));
        assertEquals("en", driver.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Payment", text("title"));
        assertEquals("19.990000 USD", text("amount"));
        assertTrue(driver.getPageSource().contains("Test wallet"));
        driver.findElement(By.id("method-test_wallet")).click();
        driver.findElement(By.id("outcome-failed")).click();
        driver.findElement(By.id("pay-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertEquals("failed", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertEquals("The payment failed. Nothing was debited.", text("status-text"));

        // back on the link, the ended payment is not reused: the button opens a fresh payment intent
        driver.get(linkPath);
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("link-form")));
        driver.findElement(By.id("link-pay-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("pay-form")));
        assertTrue(!driver.getCurrentUrl().equals(firstPage));
        driver.findElement(By.id("outcome-provider_pending")).click();
        driver.findElement(By.id("pay-button")).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertEquals("provider_pending", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertTrue(text("status-text").startsWith("The payment provider is processing"));
        assertTrue(driver.findElements(By.id("return-link")).isEmpty());
        // switching language keeps the state; the page speaks Haitian Creole too
        driver.findElement(By.id("lang-ht")).click();
        assertEquals("ht", driver.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Peman", text("title"));
        assertTrue(text("status-text").startsWith("Founisè peman an ap trete"));
        driver.findElement(By.id("lang-fr")).click();
        assertTrue(text("status-text").startsWith("Le fournisseur de paiement"));
        // the rail concludes; the page then shows the outcome it read from the service
        String pending = as(key).queryParam("status", "provider_pending").get("/api/v1/payment_intents").then().extract().path("data[0].id");
        as(key).body(Map.of("outcome", "succeeded")).post("/api/v1/test_helpers/provider_pending/" + pending + "/settle")
                .then().statusCode(200).body("status", equalTo("succeeded"));
        driver.findElement(By.id("refresh")).click();
        assertEquals("succeeded", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertEquals("Paiement reçu. Merci !", text("status-text"));
    }
}
