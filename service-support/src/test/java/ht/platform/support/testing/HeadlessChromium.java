package ht.platform.support.testing;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Chromium and ChromeDriver, headless, for the hosted-page tests of every service. Found on the machine
 * ({@code CHROMIUM_PATH} / {@code CHROMEDRIVER_PATH}, else the usual Debian paths); never installed here: a page test
 * without them fails under {@code CI=true} and is skipped elsewhere, saying why ({@link MissingTool}).
 */
public final class HeadlessChromium {

    private static final List<String> BROWSERS = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
    private static final List<String> DRIVERS = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    private static String[] found; // browser, driver
    private static String missing;

    private HeadlessChromium() { }

    public static ChromeDriver start() {
        return start(null);
    }

    /** With {@code acceptLanguage}, the browser sends exactly that Accept-Language header, as a person's would. */
    public static ChromeDriver start(String acceptLanguage) {
        String[] paths = find();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(paths[0]);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + freshProfile());
        if (acceptLanguage != null) {
            options.addArguments("--lang=" + acceptLanguage.split(",")[0]);
            options.setExperimentalOption("prefs", Map.of("intl.accept_languages", acceptLanguage));
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(paths[1])).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(90)) /* above kyc's 60 s decision budget: a hosted page may wait on a decision */;
        if (acceptLanguage != null) {
            // Chromium keeps only the languages it knows in its own Accept-Language; send the person's header as is.
            driver.executeCdpCommand("Network.enable", Map.of());
            driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", acceptLanguage)));
        }
        return driver;
    }

    /** The browser and driver paths, or the test failed (CI) or skipped with the reason, printed once. */
    static synchronized String[] find() {
        if (found == null && missing == null) {
            String browser = locate("CHROMIUM_PATH", BROWSERS);
            String driver = locate("CHROMEDRIVER_PATH", DRIVERS);
            if (browser != null && driver != null) {
                found = new String[] {browser, driver};
            } else {
                missing = "[page tests] " + (browser == null ? "no Chromium" : "no ChromeDriver") + " at "
                        + (System.getenv("CHROMIUM_PATH") != null ? "CHROMIUM_PATH=" + System.getenv("CHROMIUM_PATH")
                        : String.join(", ", browser == null ? BROWSERS : DRIVERS)) + ": apt-get install chromium chromium-driver";
                System.out.println(missing);
            }
        }
        MissingTool.check(found != null, missing);
        return found;
    }

    private static String locate(String variable, List<String> candidates) {
        String given = System.getenv(variable);
        List<String> paths = given != null && !given.isBlank() ? List.of(given) : candidates;
        return paths.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
    }

    private static String freshProfile() {
        try {
            return Files.createTempDirectory("chromium-profile-").toAbsolutePath().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The page whose root element this is has been replaced. Chromium sometimes answers a look at the old element with
     * "Node with given id does not belong to the document" instead of a stale-element error: the same fact.
     */
    public static org.openqa.selenium.support.ui.ExpectedCondition<Boolean> replaced(org.openqa.selenium.WebElement page) {
        return driver -> {
            try {
                page.isEnabled();
                return false;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return true;
            } catch (org.openqa.selenium.WebDriverException e) {
                if (e.getMessage() != null && e.getMessage().contains("does not belong to the document")) {
                    return true;
                }
                throw e;
            }
        };
    }
}
