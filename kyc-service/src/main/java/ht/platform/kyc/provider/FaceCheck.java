package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The face check: exactly one face on the selfie, the portrait on the document (its largest face; the front of a card,
 * the data page of a passport), their {@link FaceScore} (both descriptors fused) against calibrated bounds, and the
 * one liveness basic that runs here: the selfie must not be the document's own portrait (near-identical descriptor, the
 * two eye-aligned face crops the same pixels, or both near). A mirrored copy is not caught. A match also needs a selfie
 * face with the detail to be matched ({@link #detail}): a small face enlarged, or a soft one (as faces cut from group
 * photos are), can land close to a stranger, so its match is inconclusive, never verified; a mismatch stays a mismatch.
 * Descriptors stay in this method's memory.
 */
public record FaceCheck(Optional<FaceMatcher> matcher, FaceScore score, Bounds bounds) implements Check {

    /**
     * Bounds from the configuration (calibrated on kyc-service/eval): the selfie's detection score, the face score's
     * match and mismatch bounds, the copy bounds on the ResNet-34 descriptor distance and the crops' correlation, and
     * the selfie face's detail ({@link #detail}) a match needs.
     */
    public record Bounds(double selfieMinScore, double matchBelow, double mismatchFrom, double copyBelow, double copyCorrelation,
                         double copyNearBelow, double copyNearCorrelation, double selfieDetailFrom) {

        /** The selfie is the document's own portrait (the same picture): near-identical descriptor or pixels, or both near. */
        boolean copy(double distance, double correlation) {
            return distance < copyBelow || correlation >= copyCorrelation || (distance < copyNearBelow && correlation >= copyNearCorrelation);
        }
    }

    public static final String NOT_THE_PORTRAIT = "selfie_not_document_portrait";

    public String name() {
        return "face";
    }

    public CheckResult run(Evidence e) {
        if (matcher.isEmpty()) {
            return CheckResult.notPerformed(name(), "no face matcher is configured");
        }
        BufferedImage selfie = e.selfie() == null ? null : ImageQuality.decode(e.selfie());
        BufferedImage document = e.front() == null ? null : ImageQuality.decode(e.front());
        if (selfie == null) {
            return CheckResult.failed(name(), "selfie_no_face", true);
        }
        if (document == null) {
            return CheckResult.failed(name(), "document_not_detected", true);
        }
        List<FaceMatcher.Face> faces = matcher.get().faces(selfie).stream().filter(f -> f.score() >= bounds.selfieMinScore()).toList();
        if (faces.isEmpty()) {
            return CheckResult.failed(name(), "selfie_no_face", true);
        }
        if (faces.size() > 1) {
            return CheckResult.failed(name(), "selfie_multiple_faces", true);
        }
        List<FaceMatcher.Face> onDocument = matcher.get().faces(document);
        if (onDocument.isEmpty()) {
            return CheckResult.failed(name(), "document_not_detected", true);
        }
        FaceMatcher.Face face = faces.get(0);
        FaceMatcher.Face portrait = onDocument.get(0);
        double distance = portrait.distance(face);
        Map<String, Object> liveness = new LinkedHashMap<>();
        boolean copy = bounds.copy(distance, correlation(crop(document, portrait), crop(selfie, face)));
        liveness.put(NOT_THE_PORTRAIT, copy ? CheckStatus.failed.name() : CheckStatus.passed.name());
        Map<String, Object> details = Map.of("liveness", liveness);
        if (copy) {
            return new CheckResult(name(), CheckStatus.failed, List.of("document_tampering_suspected"), false, details);
        }
        double alike = score.of(portrait, face);
        if (alike < bounds.matchBelow() && detail(selfie, face) >= bounds.selfieDetailFrom()) {
            return CheckResult.passed(name(), details);
        }
        if (alike >= bounds.mismatchFrom()) {
            return new CheckResult(name(), CheckStatus.failed, List.of("face_mismatch"), false, details);
        }
        return new CheckResult(name(), CheckStatus.inconclusive, List.of("face_match_inconclusive"), true, details);
    }

    /** The detail crop's eye distance in pixels: a face whose eyes are closer than this on the selfie is enlarged into it. */
    static final int DETAIL_GAP = 56;

    /**
     * How fine the detail of the selfie face is: the inner face (from half an eye distance left of the left eye to half
     * one right of the right eye, from half one above the eyes to one and a half below), sampled in grey with the eyes
     * {@link #DETAIL_GAP} pixels apart (averaged over each output pixel's area when the face is larger, interpolated
     * when smaller), and of that crop the ratio of the Laplacian's energy to the gradient's (the mean squared spatial
     * frequency of its detail, whatever the light and contrast). A face enlarged k times loses about k² of it; so does
     * a face smaller than the gap or out of focus. The evaluation's genuine selfies measure 1.06-2.75 but for one, faces
     * cut from group photos 0.43-1.59 (kyc-service/eval FacePairEvaluation prints each).
     */
    public static double detail(BufferedImage image, FaceMatcher.Face f) {
        EyeFrame frame = EyeFrame.of(f, DETAIL_GAP);
        double perPixel = frame.perPixel();
        int side = 2 * DETAIL_GAP;
        int k = Math.max(1, (int) Math.ceil(perPixel));
        Region region = Region.around(image, f.leftEye(), frame.eyes());
        double[] grey = new double[side * side];
        for (int v = 0; v < side; v++) {
            for (int u = 0; u < side; u++) {
                double sum = 0;
                for (int j = 0; j < k; j++) {
                    for (int i = 0; i < k; i++) {
                        double a = (u - DETAIL_GAP / 2.0 + (i + 0.5) / k - 0.5) * perPixel;
                        double b = (v - DETAIL_GAP / 2.0 + (j + 0.5) / k - 0.5) * perPixel;
                        sum += region.bilinear(frame.x(a, b), frame.y(a, b));
                    }
                }
                grey[v * side + u] = sum / (k * k);
            }
        }
        double laplacian = 0;
        double gradient = 0;
        for (int y = 1; y < side - 1; y++) {
            for (int x = 1; x < side - 1; x++) {
                int p = y * side + x;
                double lap = grey[p - side] + grey[p + side] + grey[p - 1] + grey[p + 1] - 4 * grey[p];
                double gx = grey[p + 1] - grey[p];
                double gy = grey[p + side] - grey[p];
                laplacian += lap * lap;
                gradient += gx * gx + gy * gy;
            }
        }
        return gradient == 0 ? 0 : laplacian / gradient;
    }

    /**
     * The grey of the image around a face, read once (a large face is sampled millions of times): every point within
     * 2.2 eye distances of the left eye (the crop turned with the eyes), outside the image the nearest edge pixel.
     */
    private record Region(int x0, int y0, int width, int height, float[] grey) {

        static Region around(BufferedImage image, FaceMatcher.Point eye, double eyes) {
            int x0 = clamp((int) Math.floor(eye.x() - 2.2 * eyes) - 2, image.getWidth());
            int y0 = clamp((int) Math.floor(eye.y() - 2.2 * eyes) - 2, image.getHeight());
            int x1 = clamp((int) Math.ceil(eye.x() + 2.2 * eyes) + 2, image.getWidth());
            int y1 = clamp((int) Math.ceil(eye.y() + 2.2 * eyes) + 2, image.getHeight());
            int width = x1 - x0 + 1;
            int height = y1 - y0 + 1;
            float[] grey = new float[width * height];
            int[] row = new int[width];
            for (int y = 0; y < height; y++) {
                image.getRGB(x0, y0 + y, width, 1, row, 0, width);
                for (int x = 0; x < width; x++) {
                    grey[y * width + x] = (float) FaceCheck.grey(row[x]);
                }
            }
            return new Region(x0, y0, width, height, grey);
        }

        private static int clamp(int v, int size) {
            return Math.max(0, Math.min(size - 1, v));
        }

        double bilinear(double x, double y) {
            int xf = (int) Math.floor(x);
            int yf = (int) Math.floor(y);
            double fx = x - xf;
            double fy = y - yf;
            return (1 - fy) * ((1 - fx) * at(xf, yf) + fx * at(xf + 1, yf)) + fy * ((1 - fx) * at(xf, yf + 1) + fx * at(xf + 1, yf + 1));
        }

        private double at(int x, int y) {
            int cx = Math.max(0, Math.min(width - 1, x - x0));
            int cy = Math.max(0, Math.min(height - 1, y - y0));
            return grey[cy * width + cx];
        }
    }

    private static double grey(BufferedImage image, int x, int y) {
        return grey(image.getRGB(Math.max(0, Math.min(image.getWidth() - 1, x)), Math.max(0, Math.min(image.getHeight() - 1, y))));
    }

    private static double grey(int rgb) {
        return 0.299 * ((rgb >> 16) & 0xff) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);
    }

    static final int SIDE = 64;
    static final double EYE_ROW = 24;
    static final double EYE_LEFT = 20;
    static final double EYE_GAP = 24;

    /**
     * The face in grey, SIDE × SIDE, rotated and scaled so that its eyes fall on fixed pixels (as a face-recognition
     * crop is aligned): two pictures of the same pixels give the same crop whatever their size, angle or framing.
     */
    static double[] crop(BufferedImage image, FaceMatcher.Face f) {
        EyeFrame frame = EyeFrame.of(f, EYE_GAP);
        double[] grey = new double[SIDE * SIDE];
        for (int v = 0; v < SIDE; v++) {
            for (int u = 0; u < SIDE; u++) {
                double a = (u - EYE_LEFT) * frame.perPixel();
                double b = (v - EYE_ROW) * frame.perPixel();
                grey[v * SIDE + u] = grey(image, (int) Math.round(frame.x(a, b)), (int) Math.round(frame.y(a, b)));
            }
        }
        return grey;
    }

    /**
     * The image's axes turned with the face's eyes: from the left eye, {@code a} image pixels along the line to the
     * right eye and {@code b} across it; {@code perPixel} image pixels make one pixel of a crop with {@code gap} pixels
     * between the eyes.
     */
    private record EyeFrame(FaceMatcher.Point origin, double eyes, double cos, double sin, double perPixel) {

        static EyeFrame of(FaceMatcher.Face f, double gap) {
            double dx = f.rightEye().x() - f.leftEye().x();
            double dy = f.rightEye().y() - f.leftEye().y();
            double eyes = Math.max(1e-6, Math.hypot(dx, dy));
            return new EyeFrame(f.leftEye(), eyes, dx / eyes, dy / eyes, eyes / gap);
        }

        double x(double a, double b) {
            return origin.x() + a * cos - b * sin;
        }

        double y(double a, double b) {
            return origin.y() + a * sin + b * cos;
        }
    }

    /** Pearson correlation of two equally sized pixel arrays (1: the same picture up to brightness and contrast). */
    static double correlation(double[] a, double[] b) {
        double ma = 0;
        double mb = 0;
        for (int i = 0; i < a.length; i++) {
            ma += a[i];
            mb += b[i];
        }
        ma /= a.length;
        mb /= b.length;
        double ab = 0;
        double aa = 0;
        double bb = 0;
        for (int i = 0; i < a.length; i++) {
            ab += (a[i] - ma) * (b[i] - mb);
            aa += (a[i] - ma) * (a[i] - ma);
            bb += (b[i] - mb) * (b[i] - mb);
        }
        return aa == 0 || bb == 0 ? 0 : ab / Math.sqrt(aa * bb);
    }
}
