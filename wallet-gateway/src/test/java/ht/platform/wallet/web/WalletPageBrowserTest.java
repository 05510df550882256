package ht.platform.wallet.web;

import ht.platform.support.time.MovableClock;
import ht.platform.wallet.TestApi;
import ht.platform.support.testing.HeadlessChromium;
import ht.platform.support.testing.PlatformHarness;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A person's path through the hosted wallet page in a real headless Chromium, in three languages. */
@QuarkusTest
@ExtendWith(PlatformHarness.class)
class WalletPageBrowserTest {

    static WebDriver french;
    static WebDriver creole;

    @Inject
    MovableClock clock;

    String test;
    String live;

    static WebDriver browser(String acceptLanguage) throws Exception {
        return HeadlessChromium.start(acceptLanguage);
    }

    @BeforeAll
    static void startBrowsers() throws Exception {
        french = browser("fr-FR,fr");
        creole = browser("ht,fr;q=0.5");
    }

    @AfterAll
    static void stopBrowsers() {
        if (french != null) {
            french.quit();
        }
        if (creole != null) {
            creole.quit();
        }
    }

    @BeforeEach
    void keys() {
        String project = TestApi.project("Boutique Lakay");
        test = TestApi.key(project, "test");
        live = TestApi.key(project, "live");
    }


    String[] newPayment(String key, long amount) {
        var r = as(key).body("{\"amount\":" + amount + ",\"currency\":\"HTG\",\"reference\":\"CMD-" + amount
                        + "\",\"description\":\"Panier\",\"return_url\":\"https://shop.example.com/merci\"}")
                .post("/api/v1/payments").then().statusCode(201).extract();
        return new String[] {r.path("id"), "http://localhost:" + RestAssured.port + URI.create(r.<String>path("wallet_url")).getPath()};
    }

    /** Clicks a button that submits a form and waits for the next page to load. */
    static void submit(WebDriver d, String id) {
        WebElement page = d.findElement(By.tagName("html"));
        d.findElement(By.id(id)).click();
        new WebDriverWait(d, Duration.ofSeconds(10)).until(HeadlessChromium.replaced(page));
        new WebDriverWait(d, Duration.ofSeconds(10)).until(x -> !x.findElements(By.id("title")).isEmpty());
    }

    static String text(WebDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    @Test
    void frenchByDefaultACustomerPaysInTestMode() {
        String[] p = newPayment(test, 1000);
        french.get(p[1]);
        assertEquals("fr", french.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Paiement par portefeuille mobile", text(french, "title"));
        assertTrue(text(french, "test-banner").contains("MODE TEST"));
        assertEquals("Boutique Lakay", text(french, "merchant"));
        assertEquals("1025 HTG", text(french, "total"));
        assertEquals("En attente de confirmation", text(french, "status"));
        as(test).get("/api/v1/payments/" + p[0]).then().body("status", equalTo("pending"));

        submit(french, "succeed");
        assertEquals("Payé", text(french, "status"));
        assertEquals("Merci ! Votre paiement a été confirmé.", text(french, "message"));
        assertEquals("https://shop.example.com/merci", french.findElement(By.id("return")).getAttribute("href"));
        assertTrue(french.findElements(By.id("succeed")).isEmpty(), "no more buttons on a final state");
        as(test).get("/api/v1/payments/" + p[0]).then().body("status", equalTo("succeeded"));
        as(test).get("/api/v1/balance").then().body("available", equalTo(1000));
        // reloading or re-posting cannot change a final state
        french.navigate().refresh();
        assertEquals("Payé", text(french, "status"));
    }

    @Test
    void englishByQueryParameterTheWalletDeclines() {
        String[] p = newPayment(test, 200);
        french.get(p[1] + "?lang=en");
        assertEquals("en", french.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Mobile wallet payment", text(french, "title"));
        assertEquals("Waiting for confirmation", text(french, "status"));
        submit(french, "fail");
        assertEquals("Declined", text(french, "status"));
        assertEquals("The payment was declined by the wallet.", text(french, "message"));
        assertTrue(french.getCurrentUrl().contains("lang=en"), "the language is kept after the action");
        as(test).get("/api/v1/payments/" + p[0]).then().body("status", equalTo("failed"));
    }

    @Test
    void haitianCreoleFromAcceptLanguageAndTheLanguageSwitch() {
        String[] p = newPayment(test, 300);
        creole.get(p[1]);
        assertEquals("ht", creole.findElement(By.tagName("html")).getAttribute("lang"));
        assertEquals("Peman ak pòtfèy mobil", text(creole, "title"));
        assertEquals("Ap tann konfimasyon", text(creole, "status"));
        assertTrue(text(creole, "test-banner").contains("MÒD TÈS"));
        submit(creole, "succeed");
        assertEquals("Mèsi! Peman ou an konfime.", text(creole, "message"));
        submit(creole, "lang-en");
        assertEquals("Thank you! Your payment is confirmed.", text(creole, "message"));
        submit(creole, "lang-fr");
        assertEquals("Payé", text(creole, "status"));
    }

    @Test
    void liveModeWaitsForTheWalletAppAndExpiredLinksSaySo() {
        String[] p = newPayment(live, 400);
        french.get(p[1]);
        assertTrue(text(french, "message").startsWith("Confirmez le paiement dans l'application"));
        assertTrue(french.findElements(By.id("succeed")).isEmpty(), "no outcome buttons in live mode");
        assertTrue(french.findElements(By.id("test-banner")).isEmpty());
        as(live).get("/api/v1/payments/" + p[0]).then().body("status", equalTo("pending"));

        String[] q = newPayment(test, 500);
        clock.advance(Duration.ofMinutes(31));
        french.get(q[1] + "?lang=en");
        assertEquals("Expired", text(french, "status"));
        assertEquals("This payment link expired without payment.", text(french, "message"));
        as(test).get("/api/v1/payments/" + q[0]).then().body("status", equalTo("expired"));

        french.get("http://localhost:" + RestAssured.port + "/wallet/wpt_" + "0".repeat(48));
        assertEquals("Paiement introuvable", text(french, "title"));
        List<String> missing = List.of(text(french, "message"));
        assertTrue(missing.get(0).contains("n'existe pas"));
    }
}
