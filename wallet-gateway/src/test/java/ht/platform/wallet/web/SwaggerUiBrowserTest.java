package ht.platform.wallet.web;

import ht.platform.support.testing.HeadlessChromium;
import ht.platform.wallet.TestApi;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static ht.platform.wallet.TestApi.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Swagger UI as a developer exploring the API uses it, in a real headless Chromium: Authorize takes a bearer API key,
 * "Try it out" on createPayment sends the document's example, and the payment is created (201). The service runs on
 * the port its public address names, as a deployment does, so the page's requests go to the document's server.
 */
@QuarkusTest
@TestProfile(SwaggerUiBrowserTest.OnItsPublicAddress.class)
class SwaggerUiBrowserTest {

    /** The test app on a fixed free port, and public-base-url naming it. */
    public static class OnItsPublicAddress implements QuarkusTestProfile {
        private static final int PORT = freePort();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.test-port", Integer.toString(PORT), "public-base-url", "http://localhost:" + PORT);
        }

        private static int freePort() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void authorizeWithABearerKeyAndTryItOutCreatesAPayment() throws Exception {
        String key = TestApi.key(TestApi.project("Swagger UI"), "test");
        ChromeDriver browser = HeadlessChromium.start();
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            browser.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 2000));
            browser.get("http://localhost:" + RestAssured.port + "/q/swagger-ui/");
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button.authorize"))).click();
            WebElement value = wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector(".auth-container input[type=text], .auth-container input[type=password]")));
            value.sendKeys(key);
            browser.findElement(By.cssSelector(".auth-container button.authorize")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector(".auth-container button.btn-done"))).click();
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(".auth-container")));

            WebElement operation = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("operations-Payments-createPayment")));
            click(browser, operation.findElement(By.cssSelector(".opblock-summary-control, .opblock-summary")));
            click(browser, wait.until(ExpectedConditions.elementToBeClickable(
                    By.cssSelector("#operations-Payments-createPayment .try-out__btn"))));
            WebElement body = wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#operations-Payments-createPayment textarea.body-param__text")));
            assertTrue(body.getAttribute("value").contains("\"amount\""), "the document's example fills the body: " + body.getAttribute("value"));
            click(browser, browser.findElement(By.cssSelector("#operations-Payments-createPayment .btn.execute")));
            WebElement status = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(
                    "#operations-Payments-createPayment .live-responses-table .response .response-col_status")));
            WebElement curl = browser.findElement(By.cssSelector("#operations-Payments-createPayment .curl-command"));
            Path shot = Path.of("target/swagger-ui/create-payment.png");
            Files.createDirectories(shot.getParent());
            Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
            assertEquals("201", status.getText().trim().split("\\s+")[0], "Try it out answered: " + status.getText()
                    + " (screenshot " + shot.toAbsolutePath() + ")");
            assertTrue(curl.getText().contains("Authorization: Bearer " + key), "the request carried the key: " + curl.getText());
            assertTrue(curl.getText().contains("http://localhost:" + RestAssured.port + "/api/v1/payments"), curl.getText());
        } finally {
            browser.quit();
        }
        as(key).get("/api/v1/payments").then().statusCode(200).body("data.size()", equalTo(1))
                .body("data[0].reference", equalTo("order-1001")).body("data[0].status", equalTo("created"));
    }

    private static void click(WebDriver browser, WebElement element) {
        ((ChromeDriver) browser).executeScript("arguments[0].scrollIntoView({block: 'center'});", element);
        element.click();
    }
}
