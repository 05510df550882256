package ht.platform.support.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;

/**
 * One headless Chromium for a test class, started before its tests and quit after them:
 * {@code @RegisterExtension static final ChromiumSession BROWSER = new ChromiumSession("fr-FR,fr");}
 */
public final class ChromiumSession implements BeforeAllCallback, AfterAllCallback {

    private final String acceptLanguage;
    private WebDriver driver;

    /** {@code acceptLanguage}: the header the browser sends, as a person's would (null: Chromium's own). */
    public ChromiumSession(String acceptLanguage) {
        this.acceptLanguage = acceptLanguage;
    }

    public WebDriver driver() {
        return driver;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        driver = HeadlessChromium.start(acceptLanguage);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }
}
