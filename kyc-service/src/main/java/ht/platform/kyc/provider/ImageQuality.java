package ht.platform.kyc.provider;

import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;

/**
 * Measures of an uploaded image that need no external service: format (JPEG/PNG by signature), size,
 * resolution, brightness (darkness), share of saturated pixels (glare) and variance of the Laplacian (blur).
 */
public final class ImageQuality {

    public record Measures(String format, int width, int height, double meanLuma, double glareShare, double sharpness) { }

    public static final double DARK_BELOW = 40.0;
    public static final double GLARE_ABOVE = 0.10;
    public static final double BLURRY_BELOW = 25.0;
    /**
     * A selfie is judged by the face detector and the descriptor distance (a soft face is found, a soft match asks for
     * a retry); this only refuses a picture without edges. Skin and a blurred background have little edge energy:
     * sharp phone-like crops of the face-api demo photos measure 9-145 where documents need 25.
     */
    public static final double SELFIE_BLURRY_BELOW = 8.0;

    private ImageQuality() { }

    public static String format(byte[] bytes) {
        if (bytes == null || bytes.length < 8) {
            return null;
        }
        if ((bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xd8 && (bytes[2] & 0xff) == 0xff) {
            return "image/jpeg";
        }
        if ((bytes[0] & 0xff) == 0x89 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G') {
            return "image/png";
        }
        return null;
    }

    /** Width and height as the image's header declares them, read without decoding a pixel; null when unreadable. */
    public static Size declaredSize(byte[] bytes) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            ImageReader reader = reader(in);
            if (reader == null) {
                return null;
            }
            try {
                return new Size(reader.getWidth(0), reader.getHeight(0));
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    public record Size(int width, int height) {
        public long pixels() {
            return (long) width * height;
        }
    }

    /**
     * Decodes at most {@code maxSide} pixels along the longer side: a larger image is subsampled while it is read,
     * so the decoded raster never exceeds maxSide² pixels whatever the file declares. Metadata is not read.
     */
    public static BufferedImage decodeBounded(byte[] bytes, int maxSide) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            ImageReader reader = reader(in);
            if (reader == null) {
                return null;
            }
            try {
                int longer = Math.max(reader.getWidth(0), reader.getHeight(0));
                int step = Math.max(1, (longer + maxSide - 1) / maxSide);
                ImageReadParam param = reader.getDefaultReadParam();
                param.setSourceSubsampling(step, step, 0, 0);
                return reader.read(0, param);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static ImageReader reader(ImageInputStream in) {
        if (in == null) {
            return null;
        }
        Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
        if (!readers.hasNext()) {
            return null;
        }
        ImageReader reader = readers.next();
        reader.setInput(in, true, true);
        return reader;
    }

    public static BufferedImage decode(byte[] bytes) {
        try {
            return ImageIO.read(new ByteArrayInputStream(bytes));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Re-encodes as PNG: only the pixels survive, every metadata block (EXIF, GPS, comments) is dropped. */
    public static byte[] stripMetadata(BufferedImage image) {
        try {
            BufferedImage rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            rgb.getGraphics().drawImage(image, 0, 0, null);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(rgb, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Measures measure(String format, BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        int step = Math.max(1, Math.max(w, h) / 1000);
        int sw = w / step;
        int sh = h / step;
        double[][] luma = new double[sh][sw];
        double sum = 0;
        long saturated = 0;
        for (int y = 0; y < sh; y++) {
            for (int x = 0; x < sw; x++) {
                int rgb = image.getRGB(x * step, y * step);
                double l = 0.299 * ((rgb >> 16) & 0xff) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);
                luma[y][x] = l;
                sum += l;
                if (l >= 250) {
                    saturated++;
                }
            }
        }
        double n = (double) sw * sh;
        double lapSum = 0;
        double lapSq = 0;
        long count = 0;
        for (int y = 1; y < sh - 1; y++) {
            for (int x = 1; x < sw - 1; x++) {
                double lap = luma[y - 1][x] + luma[y + 1][x] + luma[y][x - 1] + luma[y][x + 1] - 4 * luma[y][x];
                lapSum += lap;
                lapSq += lap * lap;
                count++;
            }
        }
        double variance = count == 0 ? 0 : lapSq / count - Math.pow(lapSum / count, 2);
        return new Measures(format, w, h, sum / n, saturated / n, variance);
    }
}
