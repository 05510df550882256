package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * Finds faces on an image and describes each with a face-recognition descriptor (128 numbers; two photos of one
 * person lie close together in Euclidean distance). The descriptors live in memory for one decision and are never
 * stored. {@link FaceSidecar} is the built-in one; without it the face check is {@code not_performed}.
 */
public interface FaceMatcher {

    /** A point in the image's pixels. */
    record Point(double x, double y) { }

    /** One face: detection score, box and eye centres (image-left first) in the image's pixels, descriptor. */
    record Face(double score, int x, int y, int width, int height, Point leftEye, Point rightEye, float[] descriptor) {
        public long area() {
            return (long) width * height;
        }

        public double distance(Face other) {
            double sum = 0;
            for (int i = 0; i < descriptor.length; i++) {
                double d = descriptor[i] - other.descriptor[i];
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
