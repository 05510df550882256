package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The screen-capture heuristics on the selfie: real selfies (crops of the face-api demo photos, the astronaut, the
 * openly licensed portraits of the test resources; PNG and phone JPEG) pass; each of them shown on a display and
 * photographed fails as the retryable {@code selfie_screen_capture}.
 */
class SelfieScreenCheckTest {

    @BeforeEach
    void photos() {
        FaceSidecarResource.requireDemoPhotos();
    }

    static List<BufferedImage> selfies() throws Exception {
        List<BufferedImage> out = new ArrayList<>(List.of(FacePhotos.selfie(FacePhotos.A), FacePhotos.selfie(FacePhotos.B),
                FacePhotos.selfie(FacePhotos.C), FacePhotos.photo(FacePhotos.ASTRONAUT)));
        for (String name : List.of("max-Paul.jpeg", "max-Paul2.jpeg", "max-Chris.jpeg")) {
            try (var in = SelfieScreenCheckTest.class.getResourceAsStream("/faces/" + name)) {
                out.add(ImageIO.read(in));
            }
        }
        return out;
    }

    private static CheckResult check(byte[] selfie) {
        return new SelfieScreenCheck().run(new Evidence("passport", "HT", null, null, selfie, null, LocalDate.of(2026, 11, 24)));
    }

    @Test
    void aRealSelfieIsNoScreenCapture() throws Exception {
        for (BufferedImage selfie : selfies()) {
            assertEquals(CheckStatus.passed, check(Documents.png(selfie)).status());
            assertEquals(CheckStatus.passed, check(Documents.jpeg(selfie, 0.85f)).status());
        }
    }

    @Test
    void aSelfieShownOnADisplayAndPhotographedAsksForANewSelfie() throws Exception {
        List<BufferedImage> selfies = selfies();
        for (BufferedImage selfie : List.of(selfies.get(0), selfies.get(3), selfies.get(4), selfies.get(6))) {
            CheckResult r = check(Documents.offScreen(selfie, 2.6, 0.7, 0.9f));
            assertEquals(CheckStatus.failed, r.status());
            assertEquals(List.of("selfie_screen_capture"), r.reasonCodes());
            assertEquals(true, r.retryable());
        }
    }
}
