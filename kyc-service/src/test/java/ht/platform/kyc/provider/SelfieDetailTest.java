package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.service.DecisionEngine;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The selfie's face-quality gate with the real sidecar and the face check as the service configures it: one person of
 * the London Set (CC BY 4.0), the neutral photograph printed on a passport photographed level, the smiling one the
 * selfie. The sharp selfie is a match; the same selfie shrunk to a quarter (about 23 px between the eyes) and enlarged
 * back still scores as the same person, but has too little detail for a match: inconclusive, a new selfie is asked for.
 * A mismatch stays a mismatch whatever the selfie's detail.
 */
@QuarkusTest
@WithTestResource(FaceSidecarResource.class)
class SelfieDetailTest {

    static final LocalDate TODAY = LocalDate.of(2026, 11, 23);

    @Inject
    DecisionEngine engine;

    @Inject
    KycSettings settings;

    FaceSidecar detector;

    @BeforeEach
    void sidecar() {
        detector = FaceSidecarResource.detector(FaceSidecarResource.require(), FaceSidecarResource.secret());
    }

    private CheckResult faceCheck(byte[] passport, BufferedImage selfie) {
        Check check = engine.pipeline().stream().filter(FaceCheck.class::isInstance).findFirst().orElseThrow();
        return check.run(new Evidence("passport", "HT", passport, null, Documents.jpeg(selfie, 0.9f), null, TODAY));
    }

    private static byte[] passport(String portrait) {
        return Documents.photograph(FacePhotos.passportPage(FacePhotos.resource(portrait)), new Documents.Capture(0, 0, 0, 0.9f));
    }

    private FaceMatcher.Face face(byte[] photo) throws Exception {
        return detector.faces(ImageIO.read(new ByteArrayInputStream(photo))).get(0);
    }

    @Test
    void aSharpSelfieIsAMatchAndTheSameFaceEnlargedFromASmallOneIsInconclusive() throws Exception {
        byte[] passport = passport("london-001_03.jpg");
        BufferedImage sharp = FacePhotos.resource("london-001_08.jpg");
        BufferedImage enlarged = FacePhotos.enlarged(sharp, 4);

        CheckResult verified = faceCheck(passport, sharp);
        assertEquals(CheckStatus.passed, verified.status(), verified.toString());

        KycSettings.Face bounds = settings.face();
        FaceScore score = new FaceScore(FaceCohort.bundled(), bounds.cohortNearest(), bounds.descriptorWeight());
        byte[] selfie = Documents.jpeg(enlarged, 0.9f);
        FaceMatcher.Face small = face(selfie);
        double alike = score.of(face(passport), small);
        assertTrue(alike < bounds.matchBelow(), "the score alone would take the enlarged face for a match: " + alike);
        double detail = FaceCheck.detail(ImageIO.read(new ByteArrayInputStream(selfie)), small);
        assertTrue(detail < bounds.selfieDetailFrom(), "the enlarged face's detail: " + detail);

        CheckResult inconclusive = faceCheck(passport, enlarged);
        assertEquals(CheckStatus.inconclusive, inconclusive.status(), inconclusive.toString());
        assertEquals(List.of("face_match_inconclusive"), inconclusive.reasonCodes());
        assertTrue(inconclusive.retryable());
    }

    @Test
    void anEnlargedSmallFaceOfAnotherPersonIsStillAMismatch() {
        CheckResult mismatch = faceCheck(passport("london-001_03.jpg"), FacePhotos.enlarged(FacePhotos.resource("lisa-15cm.jpg"), 4));
        assertEquals(CheckStatus.failed, mismatch.status(), mismatch.toString());
        assertEquals(List.of("face_mismatch"), mismatch.reasonCodes());
    }
}
