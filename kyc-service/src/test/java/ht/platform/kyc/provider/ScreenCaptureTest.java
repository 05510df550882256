package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The screen-capture heuristics on rendered documents: every ordinary capture of the evaluation (clean, JPEG, blur,
 * glare, rotation) of a passport page, a card front and a card back is not a screen capture; the same documents
 * photographed off a display (pixel grid, sub-pixel stripes, moiré, bezel) are; real photographs (the public-domain
 * astronaut photo, the six of the face-api package) are not.
 */
class ScreenCaptureTest {

    static final Documents.Capture[] ORDINARY = {Documents.Capture.CLEAN, new Documents.Capture(0, 0, 0, 0.8f),
            new Documents.Capture(0, 0, 0, 0.5f), new Documents.Capture(1.5, 0, 0, 0.8f), new Documents.Capture(-2.5, 0, 0, 0.8f),
            new Documents.Capture(0, 1, 0, 0.8f), new Documents.Capture(0, 0, 0.35f, 0.8f), new Documents.Capture(-2, 0, 0, 0.6f)};

    static List<BufferedImage> documents() {
        BufferedImage portrait = Files.isDirectory(FaceSidecarResource.demoPhotos()) ? FacePhotos.portrait(FacePhotos.A) : null;
        String td3 = Documents.td3("HTI", "HX4271839", "900101", 'F', "310101", "BAPTISTE", "WIDLINE", false);
        String td1 = Documents.td1("HTI", "HX4271839", "900101", 'F', "310101", "BAPTISTE", "WIDLINE", false);
        return List.of(Documents.passport(td3, portrait), Documents.cardFront(portrait), Documents.cardBack(td1));
    }

    static ScreenCapture.Finding examine(byte[] photo) {
        return ScreenCapture.examine(ImageQuality.decode(photo));
    }

    @Test
    void ordinaryCapturesAreNotScreenCaptures() {
        List<String> flagged = new ArrayList<>();
        for (BufferedImage document : documents()) {
            for (Documents.Capture c : ORDINARY) {
                ScreenCapture.Finding f = examine(Documents.photograph(document, c));
                if (f.screen()) {
                    flagged.add(document.getWidth() + "px " + c + ": " + f.periodicTiles() + "/" + f.tiles() + " periodic tiles");
                }
            }
        }
        assertEquals(List.of(), flagged, "ordinary captures taken for screen captures");
    }

    @Test
    void aDocumentPhotographedOffAScreenIsCaught() {
        for (BufferedImage document : documents()) {
            for (double[] p : new double[][] {{2.35, 0.8, 0.9}, {2.8, -1.2, 0.8}, {3.1, 0.3, 0}, {2.7, 0, 0.85}, {2.3, 0, 0.85}}) {
                ScreenCapture.Finding f = examine(Documents.offScreen(document, p[0], p[1], (float) p[2]));
                assertTrue(f.screen(), "a screen capture at pitch " + p[0] + ": " + f.periodicTiles() + "/" + f.tiles() + " periodic tiles");
            }
        }
    }

    @Test
    void realPhotographsAreNotScreenCaptures() {
        ScreenCapture.Finding astronaut = ScreenCapture.examine(FacePhotos.photo(FacePhotos.ASTRONAUT));
        assertFalse(astronaut.screen(), "the astronaut photo: " + astronaut.periodicTiles() + "/" + astronaut.tiles() + " periodic tiles");
        FaceSidecarResource.requireDemoPhotos();
        for (int sample = 1; sample <= 6; sample++) {
            ScreenCapture.Finding f = ScreenCapture.examine(FacePhotos.photo(sample));
            assertFalse(f.screen(), "demo photo " + sample + ": " + f.periodicTiles() + "/" + f.tiles() + " periodic tiles");
        }
    }

    @Test
    void aSmallOrFlatPictureIsNoScreenCapture() {
        assertFalse(ScreenCapture.examine(new BufferedImage(100, 100, BufferedImage.TYPE_INT_RGB)).screen());
        assertFalse(ScreenCapture.examine(new BufferedImage(800, 600, BufferedImage.TYPE_INT_RGB)).screen());
    }
}
