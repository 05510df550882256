package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * Finds faces on an image and describes each with two independent face-recognition descriptors (two photos of one
 * person lie close together in Euclidean distance in each; {@link FaceScore} combines them). The descriptors live in
 * memory for one decision and are never stored. {@link FaceSidecar} is the built-in one; without it the face check is
 * {@code not_performed}.
 */
public interface FaceMatcher {

    /** A point in the image's pixels. */
    record Point(double x, double y) { }

    /**
     * One face: detection score, box and eye centres (image-left first) in the image's pixels, and its two descriptors:
     * face-api's ResNet-34 (128 numbers) and MobileFace's of the five-point aligned face (256 numbers, length 1).
     */
    record Face(double score, int x, int y, int width, int height, Point leftEye, Point rightEye, float[] descriptor, float[] embedding) {
        public long area() {
            return (long) width * height;
        }

        /** The Euclidean distance between the two faces' ResNet-34 descriptors. */
        public double distance(Face other) {
            return euclidean(descriptor, other.descriptor);
        }

        /** The Euclidean distance between the two faces' MobileFace descriptors. */
        public double embeddingDistance(Face other) {
            return euclidean(embedding, other.embedding);
        }

        static double euclidean(float[] a, float[] b) {
            double sum = 0;
            for (int i = 0; i < a.length; i++) {
                double d = a[i] - b[i];
                sum += d * d;
            }
            return Math.sqrt(sum);
        }
    }

    /** Every face found, largest first; throws when the engine cannot answer (the decision is then technical_error). */
    List<Face> faces(BufferedImage image);

    /** The model as the capabilities name it. */
    String model();

    /** Whether it can answer now (models loaded). */
    default boolean ready() {
        return true;
    }
}
