package ht.platform.wallet.web;

import ht.platform.support.testing.ChromiumSession;
import ht.platform.support.testing.MonCashStandIn;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.time.Duration;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live customer in a real headless Chromium: the wallet page, MonCash's page (the stand-in, another origin the
 * page's Content-Security-Policy must let the form lead to), and back to a paid page.
 */
@QuarkusTest
@TestProfile(MonCashStandIn.Profile.class)
class MonCashWalletBrowserTest {

    @RegisterExtension
    static final ChromiumSession BROWSER = new ChromiumSession("fr-FR,fr");

    @Test
    void liveCustomerPaysOnMonCashAndComesBackToAPaidPage() {
        WebDriver driver = BROWSER.driver();
        String root = "http://localhost:" + RestAssured.port;
        MonCashStandIn.sandbox().returnUrl(MonCashStandIn.CLIENT_ID, URI.create(root + "/wallet/moncash/return"));
        String live = TestApi.key(TestApi.project("Boutique en ligne " + System.nanoTime()), "live");
        var created = as(live).body("{\"amount\":1000,\"currency\":\"HTG\",\"reference\":\"CMD-7\"}")
                .post("/api/v1/payments").then().statusCode(201).extract();
        String id = created.path("id");
        driver.get(root + URI.create(created.<String>path("wallet_url")).getPath());
        assertTrue(driver.findElements(By.id("test-banner")).isEmpty(), "a live page offers no simulated outcome");
        driver.findElement(By.id("pay-moncash")).click();

        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("moncash-amount")));
        assertTrue(driver.getCurrentUrl().startsWith(MonCashStandIn.sandbox().gatewayBase() + "/Payment/Redirect?token="),
                driver.getCurrentUrl());
        assertEquals("1025 HTG", driver.findElement(By.id("moncash-amount")).getText(), "the total, fee included");
        as(live).get("/api/v1/payments/" + id).then().body("status", equalTo("pending"));

        driver.findElement(By.id("moncash-pay")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertTrue(driver.getCurrentUrl().startsWith(root + "/wallet/wpt_"), driver.getCurrentUrl());
        assertEquals("succeeded", driver.findElement(By.id("status")).getAttribute("data-status"));
        assertEquals("Merci ! Votre paiement a été confirmé.", driver.findElement(By.id("message")).getText());
        as(live).get("/api/v1/payments/" + id).then().body("status", equalTo("succeeded"));
        as(live).get("/api/v1/balance").then().body("available", equalTo(1000));
    }
}
