package ht.platform.kyc;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.RescaleOp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Portraits and selfies cut from the face-api package's demo photos (group photos, one photo per person): the
 * document portrait is a straight crop around the face; the selfie is a wider crop of the same photo, mirrored and
 * brighter (a different picture of the face, not the portrait's pixels). A face is where the sidecar's detector
 * found it on the full photo.
 */
public final class FacePhotos {

    /** One face on a demo photo: sample number and box (x, y, width, height in the 1920-px photo). */
    public record Person(int sample, int x, int y, int width, int height) {
        double cx() {
            return x + width / 2.0;
        }

        double cy() {
            return y + height / 2.0;
        }
    }

    public static final Person A = new Person(3, 585, 329, 199, 271);
    public static final Person B = new Person(6, 1180, 304, 188, 279);
    public static final Person C = new Person(5, 1112, 198, 158, 236);

    private static final Map<Integer, BufferedImage> PHOTOS = new ConcurrentHashMap<>();

    private FacePhotos() { }

    /** The sample whose photo is the public-domain astronaut photo of the test resources (faces/README.md). */
    public static final int ASTRONAUT = 7;

    public static BufferedImage photo(int sample) {
        return PHOTOS.computeIfAbsent(sample, s -> {
            try {
                if (s == ASTRONAUT) {
                    try (var in = FacePhotos.class.getResourceAsStream("/faces/astronaut.png")) {
                        return ImageIO.read(in);
                    }
                }
                return ImageIO.read(FaceSidecarResource.demoPhotos().resolve("sample" + s + ".jpg").toFile());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** A photo of the openly licensed portraits in the test resources (faces/README.md), e.g. "max-Paul.jpeg". */
    public static BufferedImage resource(String name) {
        try (var in = FacePhotos.class.getResourceAsStream("/faces/" + name)) {
            BufferedImage read = ImageIO.read(in);
            BufferedImage rgb = new BufferedImage(read.getWidth(), read.getHeight(), BufferedImage.TYPE_INT_RGB);
            Graphics2D g = rgb.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, rgb.getWidth(), rgb.getHeight());
            g.drawImage(read, 0, 0, null);
            g.dispose();
            return rgb;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The picture shrunk to 1/{@code factor} and enlarged back to its size (bicubic both ways): a small face made big,
     * with no more detail than the small one had.
     */
    public static BufferedImage enlarged(BufferedImage picture, int factor) {
        return scaled(scaled(picture, picture.getWidth() / factor, picture.getHeight() / factor), picture.getWidth(), picture.getHeight());
    }

    private static BufferedImage scaled(BufferedImage picture, int width, int height) {
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
        g.drawImage(picture, 0, 0, width, height, null);
        g.dispose();
        return out;
    }

    /** A specimen Haitian passport whose portrait is {@code photo} (drawn to cover the portrait's box, centred). */
    public static BufferedImage passportPage(BufferedImage photo) {
        return Documents.passport(Documents.td3("HTI", "HX4271839", "900101", 'F', "310101", "BAPTISTE", "WIDLINE", false), photo);
    }

    /** The passport portrait: the face and a little around it, 330 × 420. */
    public static BufferedImage portrait(Person p) {
        double w = 1.9 * p.width();
        return crop(photo(p.sample()), p.cx(), p.cy() - 0.1 * p.height(), w, w * 420 / 330, false, 1f, 330);
    }

    /** The selfie: a wider crop, mirrored (as a front camera shows it) and brighter, 520 px wide. */
    public static BufferedImage selfie(Person p) {
        double w = 2.6 * p.width();
        return crop(photo(p.sample()), p.cx(), p.cy(), w, w * 4 / 3, true, 1.15f, 520);
    }

    /** A photographed specimen Haitian passport of {@code holder} (TD3 MRZ in OCR-B; expiry YYMMDD). */
    public static byte[] passport(Person holder, String expiry, boolean breakChecksum, Documents.Capture capture) {
        String mrz = Documents.td3("HTI", "HX4271839", "900101", 'F', expiry, "BAPTISTE", "WIDLINE", breakChecksum);
        return Documents.photograph(Documents.passport(mrz, portrait(holder)), capture);
    }

    /** The front of a specimen Haitian national identity card of {@code holder} (portrait), photographed. */
    public static byte[] cardFront(Person holder, Documents.Capture capture) {
        return Documents.photograph(Documents.cardFront(portrait(holder)), capture);
    }

    /** The back of that card: its TD1 MRZ in OCR-B (expiry YYMMDD), photographed. */
    public static byte[] cardBack(String expiry, boolean breakChecksum, Documents.Capture capture) {
        String mrz = Documents.td1("HTI", "HX4271839", "900101", 'F', expiry, "BAPTISTE", "WIDLINE", breakChecksum);
        return Documents.photograph(Documents.cardBack(mrz), capture);
    }

    /** Two people side by side on one selfie. */
    public static BufferedImage together(Person left, Person right) {
        BufferedImage a = selfie(left);
        BufferedImage b = selfie(right);
        BufferedImage out = new BufferedImage(a.getWidth() + b.getWidth(), Math.max(a.getHeight(), b.getHeight()), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.drawImage(a, 0, 0, null);
        g.drawImage(b, a.getWidth(), 0, null);
        g.dispose();
        return out;
    }

    public static BufferedImage crop(BufferedImage src, double cx, double cy, double w, double h, boolean mirror, float brightness, int outW) {
        int outH = (int) Math.round(outW * h / w);
        BufferedImage out = new BufferedImage(outW, outH, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
        g.setColor(Color.GRAY);
        g.fillRect(0, 0, outW, outH);
        int x0 = (int) (cx - w / 2);
        int y0 = (int) (cy - h / 2);
        int x1 = (int) (x0 + w);
        int y1 = (int) (y0 + h);
        if (mirror) {
            g.drawImage(src, outW, 0, 0, outH, x0, y0, x1, y1, null);
        } else {
            g.drawImage(src, 0, 0, outW, outH, x0, y0, x1, y1, null);
        }
        g.dispose();
        if (brightness != 1f) {
            new RescaleOp(brightness, 0, null).filter(out, out);
        }
        return out;
    }
}
