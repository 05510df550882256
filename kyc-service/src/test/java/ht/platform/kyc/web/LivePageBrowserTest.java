package ht.platform.kyc.web;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import ht.platform.kyc.MachineTools;
import ht.platform.support.testing.Receiver;
import ht.platform.support.testing.HeadlessChromium;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.URI;
import java.net.URL;
import java.time.Duration;

import static ht.platform.kyc.Fixtures.as;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A person in Haiti verifies for real through the hosted page in headless Chromium, in Haitian Creole: a photographed
 * passport and a selfie are uploaded through the page's file fields, the MRZ is read by Tesseract, the faces compared by
 * the face sidecar, and the page shows "verified"; the client's webhook receives verification.verified.
 */
@QuarkusTest
@WithTestResource(FaceSidecarResource.class)
class LivePageBrowserTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void haitianCreoleLivePassportAndSelfieEndVerified() throws Exception {
        FaceSidecarResource.require();
        MachineTools.require("tesseract");
        WebDriver driver = HeadlessChromium.start();
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"browser-live-ht\",\"locale\":\"ht\","
                    + "\"document_types\":[\"passport\"],\"return_url\":\"https://client.example/done\"}");
            String id = created.path("id");
            driver.get(base.toString().replaceAll("/$", "") + URI.create(created.path("verification_url")).getPath());
            assertEquals("ht", driver.findElement(By.tagName("html")).getAttribute("lang"));
            driver.findElement(By.id("accept")).click();

            waitFor(driver, "send-document");
            byte[] passport = FacePhotos.passport(FacePhotos.A, "310101", false, new Documents.Capture(0, 0, 0, 0.9f));
            driver.findElement(By.id("front")).sendKeys(Images.file(passport, "passport").toAbsolutePath().toString());
            driver.findElement(By.id("send-document")).click();

            waitFor(driver, "send-selfie");
            driver.findElement(By.id("selfie")).sendKeys(Images.file(Documents.png(FacePhotos.selfie(FacePhotos.A)), "selfie")
                    .toAbsolutePath().toString());
            driver.findElement(By.id("send-selfie")).click();

            waitFor(driver, "result");
            String reasons = as(app.liveKey()).get("/api/v1/verifications/" + id).then().extract().path("reason_codes").toString();
            assertEquals("verified", driver.findElement(By.id("result")).getAttribute("data-status"), reasons);
            assertEquals("Idantite ou verifye.", driver.findElement(By.id("result")).getText());
            as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("verified"))
                    .body("result.checks.face.status", equalTo("passed")).body("result.checks.mrz.status", equalTo("passed"));
            receiver.await(h -> h.text().contains("\"verification.verified\"") && h.text().contains(id));
        } finally {
            driver.quit();
        }
    }

    private static void waitFor(WebDriver driver, String id) {
        new WebDriverWait(driver, Duration.ofSeconds(90)).until(ExpectedConditions.presenceOfElementLocated(By.id(id)));
    }
}
