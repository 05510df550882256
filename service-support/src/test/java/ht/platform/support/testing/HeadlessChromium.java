package ht.platform.support.testing;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/** Debian's Chromium and ChromeDriver, headless, for the hosted-page tests of every service. */
public final class HeadlessChromium {

    private HeadlessChromium() { }

    public static ChromeDriver start() {
        return start(null);
    }

    /** With {@code acceptLanguage}, the browser sends exactly that Accept-Language header, as a person's would. */
    public static ChromeDriver start(String acceptLanguage) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + freshProfile());
        if (acceptLanguage != null) {
            options.addArguments("--lang=" + acceptLanguage.split(",")[0]);
            options.setExperimentalOption("prefs", Map.of("intl.accept_languages", acceptLanguage));
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        if (acceptLanguage != null) {
            // Chromium keeps only the languages it knows in its own Accept-Language; send the person's header as is.
            driver.executeCdpCommand("Network.enable", Map.of());
            driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", acceptLanguage)));
        }
        return driver;
    }

    private static String freshProfile() {
        try {
            return Files.createTempDirectory("chromium-profile-").toAbsolutePath().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
