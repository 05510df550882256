package ht.platform.kyc.web;

import ht.platform.support.testing.TestDatabase;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import ht.platform.kyc.events.PrivacyWalk;
import ht.platform.kyc.provider.Mrz;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.RedirectConfig;
import io.restassured.config.RestAssuredConfig;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live hosted flow over HTTP: uploads, automatic decision, erasure of the images, nothing personal outside. */
@QuarkusTest
class HostedFlowTest {

    static final RestAssuredConfig NO_REDIRECTS = RestAssured.config().redirect(RedirectConfig.redirectConfig().followRedirects(false));
    static final String DOC_NUMBER = "HX4271839";

    @jakarta.inject.Inject
    ht.platform.support.crypto.SecretBox secretBox;

    @Test
    void mrzCheckDigitsAreValidated() throws Exception {
        LocalDate today = LocalDate.of(2026, 11, 22);
        Mrz.Data td3 = Mrz.parseTd3(Images.mrz("HTI", DOC_NUMBER, "900101", "300101", false), today);
        assertEquals("HTI", td3.issuingState());
        assertEquals(LocalDate.of(1990, 1, 1), td3.birthDate());
        assertEquals(LocalDate.of(2030, 1, 1), td3.expiryDate());
        // ICAO 9303 specimen (Utopia)
        Mrz.parseTd3("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10", today);
        Mrz.MrzException e = assertThrows(Mrz.MrzException.class, () -> Mrz.parseTd3(Images.mrz("HTI", DOC_NUMBER, "900101", "300101", true), today));
        assertTrue(e.checksum());
        assertThrows(Mrz.MrzException.class, () -> Mrz.parseTd3("P<HTI\nshort", today));
    }

    @Test
    void livePassportDecisionsAndErasure() throws Exception {
        Fixtures.App app = Fixtures.app(null);
        // valid passport, adult: every built-in check passes, but no face matcher is configured -> never verified
        String ok = run(app, Images.passport(Images.mrz("HTI", DOC_NUMBER, "900101", "300101", false)));
        as(app.liveKey()).get("/api/v1/verifications/" + ok).then().statusCode(200).body("status", equalTo("unable_to_verify"))
                .body("result.checks.document.status", equalTo("passed")).body("result.checks.mrz.status", equalTo("passed"))
                .body("result.checks.face.status", equalTo("not_performed")).body("result.checks.document.expiry_valid", equalTo(true))
                .body("reason_codes", org.hamcrest.Matchers.hasItem("face_match_inconclusive"));
        // expired passport -> rejected
        String expired = run(app, Images.passport(Images.mrz("HTI", DOC_NUMBER, "900101", "200101", false)));
        as(app.liveKey()).get("/api/v1/verifications/" + expired).then().body("status", equalTo("rejected"))
                .body("reason_code", equalTo("document_expired")).body("result.checks.document.expiry_valid", equalTo(false));
        // a check digit that does not hold, read from the photo -> retry_required mrz_checksum_failed (face matching is
        // unavailable here, so the status is unable_to_verify with the MRZ reason reported)
        String corrupted = run(app, Images.passport(Images.mrz("HTI", DOC_NUMBER, "900101", "300101", true)));
        as(app.liveKey()).get("/api/v1/verifications/" + corrupted).then().body("reason_codes", org.hamcrest.Matchers.hasItem("mrz_checksum_failed"))
                .body("result.checks.mrz.status", equalTo("failed"));
        // under 18 -> rejected
        String minor = run(app, Images.passport(Images.mrz("HTI", DOC_NUMBER, "150101", "300101", false)));
        as(app.liveKey()).get("/api/v1/verifications/" + minor).then().body("status", equalTo("rejected"))
                .body("reason_code", equalTo("under_minimum_age"));
        // blurry (flat) document photo -> a retry could help, but face matching is unavailable -> unable_to_verify, blur reported
        String flat = run(app, Images.flat(1000, 700, 128));
        as(app.liveKey()).get("/api/v1/verifications/" + flat).then().body("status", equalTo("unable_to_verify"))
                .body("reason_codes", org.hamcrest.Matchers.hasItem("document_blurry"))
                .body("result.checks.document.status", equalTo("failed"));

        try (Connection db = TestDatabase.connect()) {
            // unable_to_verify has no event kind (source §6); rejected has one
            assertEquals(4, count(db, "SELECT count(*) FROM kyc.outbox_events WHERE object_id = ?", ok));
            assertEquals(1, count(db, "SELECT count(*) FROM kyc.outbox_events WHERE object_id = ? AND type = 'verification.rejected'", expired));
            for (String id : List.of(ok, expired, minor, flat)) {
                assertEquals(0, count(db, "SELECT count(*) FROM kyc.verification_images WHERE verification_id = ?", id), "images erased");
                assertEquals(1, count(db, "SELECT count(*) FROM kyc.verifications WHERE id = ? AND images_erased_at IS NOT NULL", id));
                String read = as(app.liveKey()).get("/api/v1/verifications/" + id).then().extract().asString();
                PrivacyWalk.assertClean(read, DOC_NUMBER, "JANE", "900101");
                for (String payload : strings(db, "SELECT convert_from(body, 'UTF8') FROM kyc.outbox_events WHERE object_id = ?", id)) {
                    PrivacyWalk.assertClean(payload, DOC_NUMBER, "JANE", "900101");
                }
                for (String row : strings(db, "SELECT row_to_json(v)::text FROM kyc.verifications v WHERE id = ?", id)) {
                    assertTrue(!row.contains(DOC_NUMBER) && !row.contains("JANE") && !row.contains("900101") && !row.contains("iVBORw0KGgo"),
                            "no document data stored");
                }
                // what the events and their deliveries keep: statuses and reasons only
                for (String row : strings(db, "SELECT row_to_json(d)::text || coalesce((SELECT json_agg(a)::text FROM kyc.outbox_attempts a"
                        + " WHERE a.delivery_id = d.id), '') FROM kyc.outbox_deliveries d JOIN kyc.outbox_events e ON e.id = d.event_id"
                        + " WHERE e.object_id = ?", id)) {
                    assertTrue(!row.contains(DOC_NUMBER) && !row.contains("JANE") && !row.contains("iVBORw0KGgo"), "no document data in deliveries");
                }
                // every step of the live flow left its event, in order, in the outbox
                List<String> types = strings(db, "SELECT type FROM kyc.outbox_events WHERE object_id = ? ORDER BY created_at, id", id);
                assertEquals(List.of("verification.created", "verification.started", "verification.document_submitted",
                        "verification.processing"), types.subList(0, 4), "events of " + id);
            }
        }
    }

    @Test
    void pageGuardsItsSteps() {
        Fixtures.App app = Fixtures.app(null);
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"guard\",\"document_types\":[\"national_id\"]}");
        String path = java.net.URI.create(created.path("verification_url")).getPath();
        given().get("/v/" + "x".repeat(43)).then().statusCode(404).body(containsString("pas valide"));
        given().get(path + "?lang=en").then().statusCode(200).body(containsString("Your consent"));
        given().config(NO_REDIRECTS).formParam("decision", "accept").post(path + "/consent").then().statusCode(303);
        given().get(path + "?lang=ht").then().statusCode(200).body(containsString("Pran foto pyès idantite ou"));
        as(app.liveKey()).get("/api/v1/verifications/" + created.path("id")).then().body("status", equalTo("started"));
    }

    private String run(Fixtures.App app, byte[] front) {
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"live-" + System.nanoTime() + "\",\"document_types\":[\"passport\"]}");
        String path = java.net.URI.create(created.path("verification_url")).getPath();
        given().get(path).then().statusCode(200);
        given().config(NO_REDIRECTS).formParam("decision", "accept").post(path + "/consent").then().statusCode(303);
        given().config(NO_REDIRECTS).multiPart("front", "front.png", front, "image/png")
                .post(path + "/document").then().statusCode(303).header("Location", org.hamcrest.Matchers.not(containsString("error")));
        String id = created.path("id");
        as(app.liveKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("document_submitted"));
        assertSealedAtRest(id, front);
        given().config(NO_REDIRECTS).multiPart("selfie", "selfie.png", Images.sharp(600, 600, 9), "image/png")
                .post(path + "/selfie").then().statusCode(303).header("Location", org.hamcrest.Matchers.not(containsString("error")));
        return created.path("id");
    }

    /** Before the decision the document photo and the MRZ are in the database only as AES-256-GCM boxes bound to their row. */
    private void assertSealedAtRest(String id, byte[] front) {
        try (Connection db = TestDatabase.connect()) {
            java.util.Map<String, byte[]> rows = new java.util.HashMap<>();
            try (PreparedStatement ps = db.prepareStatement("SELECT kind, sealed FROM kyc.verification_images WHERE verification_id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.put(rs.getString(1), rs.getBytes(2));
                    }
                }
            }
            assertEquals(java.util.Set.of("document_front"), rows.keySet(), "the photo only: the MRZ is read from it, never typed");
            byte[] sealedFront = rows.get("document_front");
            // not the plain bytes: no PNG signature, no MRZ text, no document number anywhere in the stored box
            assertTrue(indexOf(sealedFront, new byte[] {(byte) 0x89, 'P', 'N', 'G'}) < 0, "no PNG signature at rest");
            assertTrue(indexOf(sealedFront, java.util.Arrays.copyOfRange(front, 8, 40)) < 0, "no plain image bytes at rest");
            // the service's key opens it, bound to (verification, kind): the photo as a PNG without metadata
            byte[] plainFront = secretBox.open(sealedFront, (id + ":document_front").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            java.awt.image.BufferedImage decoded = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(plainFront));
            java.awt.image.BufferedImage original = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(front));
            assertEquals(original.getWidth(), decoded.getWidth());
            assertEquals(original.getRGB(17, 23), decoded.getRGB(17, 23));
            // a box moved to another row (other associated data) does not open; a flipped bit fails authentication
            assertThrows(IllegalStateException.class, () -> secretBox.open(sealedFront, (id + ":selfie").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            byte[] tampered = sealedFront.clone();
            tampered[20] ^= 1;
            assertThrows(IllegalStateException.class, () -> secretBox.open(tampered, (id + ":document_front").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.sql.SQLException | java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static long count(Connection db, String sql, String id) throws Exception {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static List<String> strings(Connection db, String sql, String id) throws Exception {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
