package ht.platform.kyc.web;

import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import io.quarkus.test.common.http.TestHTTPResource;
import ht.platform.support.testing.ChromiumSession;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;

import static ht.platform.kyc.Fixtures.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A person's path through the hosted verification page in a real headless Chromium: from the verification_url
 * the client redirected them to, through consent and the document choice, to the result page and the way back
 * to the client's return_url; in French (default), Haitian Creole and English; test mode (simulated outcome)
 * and live mode (real uploads of generated images).
 */
@QuarkusTest
class HostedPageBrowserTest {

    static final String RETURN_URL = "https://client.example/done";
    @RegisterExtension
    static final ChromiumSession BROWSER = new ChromiumSession(null);
    static WebDriver driver;

    @TestHTTPResource("/")
    URL base;

    Fixtures.App app;

    @BeforeEach
    void setUp() {
        driver = BROWSER.driver();
        app = Fixtures.app(null);
    }

    /** The verification_url as the client received it, pointed at the test server (public-base-url is the production name). */
    private String open(String verificationUrl) {
        String path = URI.create(verificationUrl).getPath();
        assertTrue(path.matches("/v/[A-Za-z0-9_-]{43}"), "an opaque token, not the id: " + path);
        String url = base.toString().replaceAll("/$", "") + path;
        driver.get(url);
        return url;
    }

    private static String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private static String heading() {
        return driver.findElement(By.tagName("h2")).getText();
    }

    private static void click(String id) {
        driver.findElement(By.id(id)).click();
    }

    private static void waitFor(String id) {
        waitFor(id, Duration.ofSeconds(20));
    }

    /**
     * The result of a live decision: it may legitimately take up to its time budget (kyc.decision.time-budget, 60 s)
     * on a loaded machine, a national id without MRZ the longest (its OCR tries every orientation).
     */
    private static void waitForDecision() {
        waitFor("result", Duration.ofSeconds(75));
    }

    private static void waitFor(String id, Duration max) {
        new WebDriverWait(driver, max).until(ExpectedConditions.presenceOfElementLocated(By.id(id)));
    }

    private static String lang() {
        return driver.findElement(By.tagName("html")).getAttribute("lang");
    }

    @Test
    void frenchTestModePathToVerifiedAndBackToTheClient() {
        var created = Fixtures.createFull(app.testKey(), "{\"external_user_id\":\"browser-fr\",\"return_url\":\"" + RETURN_URL + "\"}");
        String id = created.path("id");
        open(created.path("verification_url"));

        // consent (French is the default locale)
        assertEquals("fr", lang());
        assertEquals("Vérification d'identité", text("title"));
        assertEquals("Votre consentement", heading());
        assertTrue(text("consent-text").startsWith("Pour vérifier votre identité"));
        assertEquals("J'accepte", text("accept"));
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("started"));
        click("accept");

        // document type: the three documents, in French
        waitFor("continue");
        assertEquals("Choisissez votre pièce d'identité", heading());
        String page = driver.findElement(By.tagName("form")).getText();
        assertTrue(page.contains("Carte d'identification nationale") && page.contains("Permis de conduire") && page.contains("Passeport"), page);
        click("doc-passport");
        click("continue");

        // test mode: nothing uploaded, the person picks the outcome
        waitFor("simulate");
        assertEquals("Mode test", heading());
        assertTrue(text("test-text").startsWith("Aucune image n'est envoyée en mode test"));
        assertTrue(driver.findElements(By.cssSelector("input[type=file]")).isEmpty(), "no upload field in test mode");
        click("outcome-verified");
        click("simulate");

        // the result, and the way back to the client's return_url
        waitFor("result");
        assertEquals("Résultat", heading());
        assertEquals("verified", driver.findElement(By.id("result")).getAttribute("data-status"));
        assertEquals("Votre identité est vérifiée.", text("result"));
        assertEquals("Retourner au service", text("return"));
        assertEquals(RETURN_URL, driver.findElement(By.id("return")).getAttribute("href"));

        // the API agrees; the outcome went through processing, with the chosen document
        as(app.testKey()).get("/api/v1/verifications/" + id).then().statusCode(200)
                .body("status", equalTo("verified")).body("result.checks.document.document_type", equalTo("passport"))
                .body("result.checks.face.status", equalTo("passed")).body("completed_at", org.hamcrest.Matchers.notNullValue());
        // the page link is spent: reloading shows the same result, no form
        driver.navigate().refresh();
        waitFor("result");
        assertTrue(driver.findElements(By.tagName("form")).isEmpty());
    }

    @Test
    void haitianCreoleTestModeRejectionWithAChosenReason() {
        var created = Fixtures.createFull(app.testKey(), "{\"external_user_id\":\"browser-ht\",\"locale\":\"ht\","
                + "\"document_types\":[\"national_id\",\"driver_license\"],\"return_url\":\"" + RETURN_URL + "\"}");
        String id = created.path("id");
        open(created.path("verification_url"));

        assertEquals("ht", lang());
        assertEquals("Verifikasyon idantite", text("title"));
        assertEquals("Konsantman ou", heading());
        assertEquals("Mwen dakò", text("accept"));
        click("accept");

        waitFor("continue");
        assertEquals("Chwazi pyès idantite ou", heading());
        assertTrue(driver.findElements(By.id("doc-passport")).isEmpty(), "only the documents the client allowed");
        click("doc-driver_license");
        click("continue");

        waitFor("simulate");
        assertEquals("Mòd tès", heading());
        click("outcome-rejected");
        new Select(driver.findElement(By.id("reason"))).selectByValue("document_tampering_suspected");
        click("simulate");

        waitFor("result");
        assertEquals("Rezilta", heading());
        assertEquals("rejected", driver.findElement(By.id("result")).getAttribute("data-status"));
        assertEquals("Verifikasyon ou an refize.", text("result"));
        assertEquals("Retounen nan sèvis la", text("return"));
        assertEquals(RETURN_URL, driver.findElement(By.id("return")).getAttribute("href"));

        // switching language keeps the state
        click("lang-en");
        waitFor("result");
        assertEquals("en", lang());
        assertEquals("Your verification was rejected.", text("result"));

        as(app.testKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("rejected"))
                .body("reason_code", equalTo("document_tampering_suspected"))
                .body("result.checks.document.document_type", equalTo("driver_license"));
    }

    @Test
    void englishDeclinedConsentEndsTheVerification() {
        var created = Fixtures.createFull(app.testKey(), "{\"external_user_id\":\"browser-decline\",\"locale\":\"en\"}");
        String id = created.path("id");
        open(created.path("verification_url"));
        assertEquals("Your consent", heading());
        assertEquals("I agree", text("accept"));
        click("decline");
        waitFor("result");
        assertEquals("cancelled", driver.findElement(By.id("result")).getAttribute("data-status"));
        assertEquals("The verification was cancelled.", text("result"));
        // no return_url was given: the page says the window can be closed
        assertTrue(driver.findElements(By.id("return")).isEmpty());
        assertTrue(driver.getPageSource().contains("You can close this window."));
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("cancelled"))
                .body("reason_code", equalTo("consent_declined"));
    }

    @Test
    void englishLivePassportUploadsPhotosAndMrzToAnAutomaticDecision() {
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"browser-live-en\",\"locale\":\"en\","
                + "\"document_types\":[\"passport\"],\"return_url\":\"" + RETURN_URL + "\"}");
        String id = created.path("id");
        open(created.path("verification_url"));
        assertEquals("Identity verification", text("title"));
        click("accept");

        // one document type offered: the choice is skipped; passports have no back, and no MRZ to type (it is read from the photo)
        waitFor("send-document");
        assertEquals("Take photos of your document", heading());
        assertTrue(driver.findElements(By.id("back")).isEmpty());
        assertTrue(driver.findElements(By.id("mrz")).isEmpty());
        driver.findElement(By.id("front")).sendKeys(Images.file(Images.passport(Images.mrz("HTI", "HX7777123", "880214", "310101", false)),
                "front").toAbsolutePath().toString());
        click("send-document");

        waitFor("send-selfie");
        assertEquals("Take a selfie", heading());
        as(app.liveKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("document_submitted"));
        driver.findElement(By.id("selfie")).sendKeys(Images.file(Images.sharp(640, 640, 22), "selfie").toAbsolutePath().toString());
        click("send-selfie");

        // the decision is automatic: document and MRZ pass; no face matcher is configured here, so never verified
        waitForDecision();
        assertEquals("Result", heading());
        assertEquals("unable_to_verify", driver.findElement(By.id("result")).getAttribute("data-status"));
        assertEquals("We could not verify your identity with this document.", text("result"));
        assertEquals("Return to the service", text("return"));
        assertEquals(RETURN_URL, driver.findElement(By.id("return")).getAttribute("href"));
        as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("unable_to_verify"))
                .body("result.checks.document.status", equalTo("passed")).body("result.checks.mrz.status", equalTo("passed"))
                .body("result.checks.face.status", equalTo("not_performed"))
                .body("reason_codes", hasItem("face_match_inconclusive"));
    }

    @Test
    void frenchLiveNationalIdNeedsBothSidesThenIsDecided() {
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"browser-live-fr\","
                + "\"document_types\":[\"national_id\"],\"return_url\":\"" + RETURN_URL + "\"}");
        String id = created.path("id");
        open(created.path("verification_url"));
        click("accept");

        waitFor("send-document");
        assertEquals("Photographiez votre pièce d'identité", heading());
        assertEquals(List.of("Recto (JPEG ou PNG, 10 Mo au plus)", "Verso (JPEG ou PNG, 10 Mo au plus)"),
                driver.findElements(By.cssSelector("form label")).stream().map(e -> e.getText()).toList());
        driver.findElement(By.id("front")).sendKeys(Images.file(Images.sharp(1000, 700, 31), "front").toAbsolutePath().toString());
        driver.findElement(By.id("back")).sendKeys(Images.file(Images.sharp(1000, 700, 32), "back").toAbsolutePath().toString());
        click("send-document");

        waitFor("send-selfie");
        assertEquals("Prenez un selfie", heading());
        driver.findElement(By.id("selfie")).sendKeys(Images.file(Images.sharp(640, 640, 33), "selfie").toAbsolutePath().toString());
        click("send-selfie");

        waitForDecision();
        assertEquals("Résultat", heading());
        String status = driver.findElement(By.id("result")).getAttribute("data-status");
        // what the page shows is what the API reads
        as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo(status))
                .body("result.checks.document.document_type", equalTo("national_id"));
        assertTrue(List.of("rejected", "retry_required", "unable_to_verify").contains(status), "no face matcher: never verified, got " + status);
        String expected = switch (status) {
            case "rejected" -> "Votre vérification a été refusée.";
            case "retry_required" -> "Les photos n'ont pas permis de conclure : un nouvel essai est nécessaire, avec des photos nettes prises de près.";
            default -> "Nous n'avons pas pu vérifier votre identité avec ce document.";
        };
        assertEquals(expected, text("result"));
        assertEquals(RETURN_URL, driver.findElement(By.id("return")).getAttribute("href"));
    }
}
