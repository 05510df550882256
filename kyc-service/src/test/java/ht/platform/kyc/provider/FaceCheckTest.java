package ht.platform.kyc.provider;

import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import org.junit.jupiter.api.Test;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pixel side of the selfie-is-not-the-portrait check, and the bounds that decide it. */
class FaceCheckTest {

    static final FaceCheck.Bounds BOUNDS = new FaceCheck.Bounds(0.5, 0.45, 0.55, 0.1, 0.88, 0.2, 0.8, 1.0);

    static FaceMatcher.Face at(double lx, double ly, double rx, double ry) {
        return new FaceMatcher.Face(1, 0, 0, 1, 1, new FaceMatcher.Point(lx, ly), new FaceMatcher.Point(rx, ry), new float[128], new float[256]);
    }

    @Test
    void eyeAlignedCropsOfOnePictureAgreeWhateverItsSize() {
        FaceSidecarResource.requireDemoPhotos();
        BufferedImage portrait = FacePhotos.portrait(FacePhotos.A);
        BufferedImage larger = new BufferedImage(portrait.getWidth() * 2, portrait.getHeight() * 2, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = larger.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(portrait, 0, 0, larger.getWidth(), larger.getHeight(), null);
        g.dispose();
        double[] small = FaceCheck.crop(portrait, at(120, 190, 210, 190));
        double same = FaceCheck.correlation(small, FaceCheck.crop(larger, at(240, 380, 420, 380)));
        assertTrue(same > 0.95, "the same picture at twice the size: " + same);
        double other = FaceCheck.correlation(small, FaceCheck.crop(FacePhotos.portrait(FacePhotos.B), at(120, 190, 210, 190)));
        assertTrue(other < 0.8, "another person's picture: " + other);
    }

    /** The London Set's 001 smiling (600 px), its eyes where the sidecar finds them. */
    @Test
    void aFaceEnlargedFromASmallOneHasLessDetailWhateverTheContrast() {
        BufferedImage sharp = FacePhotos.resource("london-001_08.jpg");
        FaceMatcher.Face eyes = at(245.3, 313.9, 337.5, 306.4);
        double detail = FaceCheck.detail(sharp, eyes);
        assertTrue(detail >= BOUNDS.selfieDetailFrom(), "the photograph: " + detail);
        double half = FaceCheck.detail(FacePhotos.enlarged(sharp, 2), eyes);
        double quarter = FaceCheck.detail(FacePhotos.enlarged(sharp, 4), eyes);
        assertTrue(half < detail && quarter < half, "enlarged twice " + half + ", four times " + quarter);
        assertTrue(quarter < BOUNDS.selfieDetailFrom(), "enlarged four times: " + quarter);
        BufferedImage dim = new java.awt.image.RescaleOp(0.5f, 40, null).filter(sharp, null);
        assertEquals(detail, FaceCheck.detail(dim, eyes), 0.05 * detail, "half the contrast");
    }

    @Test
    void correlationIgnoresBrightnessAndContrast() {
        double[] a = {1, 2, 3, 4, 9};
        double[] b = {12, 14, 16, 18, 28};
        assertEquals(1.0, FaceCheck.correlation(a, b), 1e-9);
        assertEquals(0.0, FaceCheck.correlation(a, new double[] {5, 5, 5, 5, 5}));
    }

    @Test
    void theBoundsCallACopyOnlyWhenThePictureIsTheSame() {
        assertTrue(BOUNDS.copy(0.05, 0.1), "near-identical descriptor");
        assertTrue(BOUNDS.copy(0.35, 0.9), "the same pixels");
        assertTrue(BOUNDS.copy(0.15, 0.83), "both near");
        assertFalse(BOUNDS.copy(0.15, 0.3), "a close face on another picture");
        assertFalse(BOUNDS.copy(0.36, 0.867), "another picture of the same face, lit alike");
    }
}
