package ht.platform.support.testing;

import io.restassured.RestAssured;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * A merchant in a headless Chromium on the dashboard of the service under test: opens a sign-in link and presses
 * its button, opens pages, submits forms and waits for the next page, and keeps screenshots under
 * {@code target/screenshots/<service>-dashboard-<name>.png}. A test class registers one
 * ({@code @RegisterExtension static final DashboardBrowser dash = new DashboardBrowser("kyc")}): the browser starts
 * before its tests, each test begins signed out, and the browser quits after them.
 */
public final class DashboardBrowser implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private static final Duration PAGE = Duration.ofSeconds(15);

    public ChromeDriver driver;
    private final String service;

    public DashboardBrowser(String service) {
        this.service = service;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        driver = HeadlessChromium.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        driver.manage().deleteAllCookies();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.quit();
        }
    }

    /** Opens a sign-in link (its path and token on the service under test) and presses the button. */
    public void signIn(String linkUrl) {
        URI link = URI.create(linkUrl);
        open(link.getPath() + "?" + link.getQuery());
        submit("sign-in");
    }

    public void open(String path) {
        driver.get("http://localhost:" + RestAssured.port + path);
    }

    /** Clicks the element {@code id} and waits for the page that answers it. */
    public void submit(String id) {
        WebElement page = driver.findElement(By.tagName("html"));
        driver.findElement(By.id(id)).click();
        try {
            new WebDriverWait(driver, PAGE).until(HeadlessChromium.replaced(page));
            new WebDriverWait(driver, PAGE).until(d -> !d.findElements(By.id("title")).isEmpty());
        } catch (RuntimeException e) {
            try {
                screenshot("stuck-on-" + id);
                Files.writeString(Path.of("target", "screenshots", service + "-dashboard-stuck-on-" + id + ".html"), driver.getPageSource());
            } catch (IOException ignored) {
                // the failure below is what matters
            }
            throw e;
        }
    }

    public String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    public void screenshot(String name) throws IOException {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), dir.resolve(service + "-dashboard-" + name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
    }
}
