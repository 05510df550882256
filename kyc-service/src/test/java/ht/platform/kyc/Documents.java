package ht.platform.kyc;

import ht.platform.kyc.provider.Mrz;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RadialGradientPaint;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.awt.image.ConvolveOp;
import java.awt.image.Kernel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Renders specimen identity documents for the live checks: a passport data page (TD3 MRZ, 2×44) or an identity
 * card back (TD1, 3×30) with a real ICAO 9303 MRZ in a monospaced font, the portrait from a face photo, and
 * the capture defects a phone adds (blur, glare, rotation, JPEG quality).
 */
public final class Documents {

    /** How the document was photographed. */
    public record Capture(double rotationDegrees, int blurRadius, float glare, float jpegQuality) {
        public static final Capture CLEAN = new Capture(0, 0, 0, 0);
    }

    /** OCR-B as ICAO 9303 prints it: Matthew Skala's public-domain OCR-B (Debian fonts-ocr-b 0.3), shipped in the service for its MRZ reader. */
    private static final Font OCR_B = load();

    private Documents() { }

    private static Font load() {
        try (var in = Documents.class.getResourceAsStream("/fonts/OCRB.otf")) {
            return Font.createFont(Font.TRUETYPE_FONT, in);
        } catch (Exception e) {
            throw new IllegalStateException("OCR-B font missing from the resources", e);
        }
    }

    /** A TD3 MRZ with correct check digits (unless {@code breakChecksum}: the document number's digit is off by one). */
    public static String td3(String state, String number, String birth, char sex, String expiry, String surname, String given,
                             boolean breakChecksum) {
        String l1 = pad("P<" + state + surname + "<<" + given, 44);
        String doc = pad(number, 9);
        String l2 = doc + Mrz.checkDigit(doc) + state + birth + Mrz.checkDigit(birth) + sex + expiry + Mrz.checkDigit(expiry)
                + "<".repeat(14) + "<";
        l2 = l2 + Mrz.checkDigit(l2.substring(0, 10) + l2.substring(13, 20) + l2.substring(21, 43));
        return breakChecksum ? l1 + "\n" + off(l2, 9) : l1 + "\n" + l2;
    }

    /** A TD1 MRZ (identity card) with correct check digits unless {@code breakChecksum}. */
    public static String td1(String state, String number, String birth, char sex, String expiry, String surname, String given,
                             boolean breakChecksum) {
        String doc = pad(number, 9);
        String l1 = "ID" + state + doc + Mrz.checkDigit(doc) + "<".repeat(15);
        String l2 = birth + Mrz.checkDigit(birth) + sex + expiry + Mrz.checkDigit(expiry) + state + "<".repeat(11);
        l2 = l2 + Mrz.checkDigit(l1.substring(5, 30) + l2.substring(0, 7) + l2.substring(8, 15) + l2.substring(18, 29));
        String l3 = pad(surname + "<<" + given, 30);
        return breakChecksum ? off(l1, 14) + "\n" + l2 + "\n" + l3 : l1 + "\n" + l2 + "\n" + l3;
    }

    /** A passport data page: header, portrait, printed fields, the MRZ across the bottom. */
    public static BufferedImage passport(String mrz, BufferedImage portrait) {
        int w = 1250;
        int h = 880;
        BufferedImage page = background(w, h, new Color(0xe9, 0xf0, 0xf7), new Color(0xd5, 0xe2, 0xef));
        Graphics2D g = graphics(page);
        g.setColor(new Color(0x1d, 0x3b, 0x6e));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 34));
        g.drawString("REPUBLIQUE D'HAITI  -  PASSEPORT / PASSPORT", 60, 70);
        drawPortrait(g, portrait, 60, 120, 330, 420);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 22));
        String[] l = mrz.split("\n");
        String[] names = l[0].substring(5).split("<<", 2);
        String[][] fields = {{"Nom / Surname", names[0].replace('<', ' ')},
                {"Prenoms / Given names", names.length > 1 ? names[1].replace('<', ' ').strip() : ""},
                {"Nationalite", l[1].substring(10, 13)}, {"Date de naissance", l[1].substring(13, 19)},
                {"Sexe", l[1].substring(20, 21)}, {"Date d'expiration", l[1].substring(21, 27)}, {"No", l[1].substring(0, 9)}};
        int y = 150;
        for (String[] f : fields) {
            g.setColor(new Color(0x55, 0x66, 0x7a));
            g.drawString(f[0], 440, y);
            g.setColor(Color.BLACK);
            g.drawString(f[1], 440, y + 28);
            y += 62;
        }
        drawMrz(g, l, w, h, 44);
        g.dispose();
        return page;
    }

    /** The back of an identity card: a few printed lines and the three MRZ lines. */
    public static BufferedImage cardBack(String mrz) {
        int w = 1000;
        int h = 630;
        BufferedImage page = background(w, h, new Color(0xf3, 0xee, 0xe2), new Color(0xe6, 0xdc, 0xc6));
        Graphics2D g = graphics(page);
        g.setColor(new Color(0x5a, 0x3d, 0x1e));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 24));
        g.drawString("CARTE D'IDENTIFICATION NATIONALE", 50, 60);
        g.drawString("Adresse / Address: ---", 50, 100);
        drawMrz(g, mrz.split("\n"), w, h, 30);
        g.dispose();
        return page;
    }

    /** The front of an identity card: header and portrait (its MRZ is on the back). */
    public static BufferedImage cardFront(BufferedImage portrait) {
        BufferedImage page = background(1000, 630, new Color(0xf3, 0xee, 0xe2), new Color(0xe6, 0xdc, 0xc6));
        Graphics2D g = graphics(page);
        g.setColor(new Color(0x5a, 0x3d, 0x1e));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 30));
        g.drawString("REPUBLIQUE D'HAITI", 50, 60);
        drawPortrait(g, portrait, 50, 100, 300, 380);
        g.dispose();
        return page;
    }

    /** The photo as a phone takes it: rotated, blurred, with glare; JPEG at the given quality (PNG when 0). */
    public static byte[] photograph(BufferedImage document, Capture c) {
        BufferedImage img = document;
        if (c.rotationDegrees() != 0) {
            int margin = 60;
            BufferedImage out = new BufferedImage(img.getWidth() + 2 * margin, img.getHeight() + 2 * margin, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = graphics(out);
            g.setColor(new Color(0x40, 0x40, 0x44));
            g.fillRect(0, 0, out.getWidth(), out.getHeight());
            AffineTransform t = AffineTransform.getRotateInstance(Math.toRadians(c.rotationDegrees()), out.getWidth() / 2.0, out.getHeight() / 2.0);
            t.translate(margin, margin);
            g.drawImage(img, t, null);
            g.dispose();
            img = out;
        }
        if (c.blurRadius() > 0) {
            int n = 2 * c.blurRadius() + 1;
            float[] k = new float[n * n];
            java.util.Arrays.fill(k, 1f / (n * n));
            BufferedImage padded = new BufferedImage(img.getWidth(), img.getHeight(), BufferedImage.TYPE_INT_RGB);
            new ConvolveOp(new Kernel(n, n, k), ConvolveOp.EDGE_NO_OP, null).filter(img, padded);
            img = padded;
        }
        if (c.glare() > 0) {
            BufferedImage out = copy(img);
            Graphics2D g = graphics(out);
            float r = out.getWidth() / 4f;
            g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, c.glare()));
            g.setPaint(new RadialGradientPaint(out.getWidth() * 0.7f, out.getHeight() * 0.3f, r, new float[] {0f, 1f},
                    new Color[] {Color.WHITE, new Color(255, 255, 255, 0)}));
            g.fillRect(0, 0, out.getWidth(), out.getHeight());
            g.dispose();
            img = out;
        }
        return c.jpegQuality() > 0 ? jpeg(img, c.jpegQuality()) : png(img);
    }

    /**
     * The document shown full-screen on a display and photographed with a phone: the display's pixel grid (red, green
     * and blue sub-pixel stripes with dark gaps, {@code pitch} camera pixels per display pixel, turned by
     * {@code degrees}), each camera pixel integrating 3 × 3 points of it (which makes the moiré), the backlight's gain,
     * a dark bezel around the screen and the desk beyond it. JPEG at {@code jpegQuality} (PNG when 0).
     */
    public static byte[] offScreen(BufferedImage document, double pitch, double degrees, float jpegQuality) {
        int sw = 900;
        int sh = (int) Math.round((double) sw * document.getHeight() / document.getWidth());
        BufferedImage shown = new BufferedImage(sw, sh, BufferedImage.TYPE_INT_RGB);
        Graphics2D sg = graphics(shown);
        sg.drawImage(document, 0, 0, sw, sh, null);
        sg.dispose();
        int bezel = 70;
        int desk = 50;
        int w = (int) (sw * pitch) + 2 * (bezel + desk);
        int h = (int) (sh * pitch) + 2 * (bezel + desk);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        double cos = Math.cos(Math.toRadians(degrees));
        double sin = Math.sin(Math.toRadians(degrees));
        double cx = w / 2.0;
        double cy = h / 2.0;
        double gain = 3.1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double r = 0;
                double g = 0;
                double b = 0;
                for (int sy = 0; sy < 3; sy++) {
                    for (int sx = 0; sx < 3; sx++) {
                        double px = x + (sx + 0.5) / 3 - cx;
                        double py = y + (sy + 0.5) / 3 - cy;
                        // camera point -> display coordinates (display pixels)
                        double dx = (px * cos + py * sin) / pitch + sw / 2.0;
                        double dy = (-px * sin + py * cos) / pitch + sh / 2.0;
                        if (dx < 0 || dy < 0 || dx >= sw || dy >= sh) {
                            boolean onBezel = dx > -bezel / pitch && dy > -bezel / pitch && dx < sw + bezel / pitch && dy < sh + bezel / pitch;
                            r += onBezel ? 16 : 150;
                            g += onBezel ? 16 : 128;
                            b += onBezel ? 19 : 102;
                            continue;
                        }
                        int rgb = shown.getRGB((int) dx, (int) dy);
                        double fx = (dx - Math.floor(dx)) * 3;
                        double fy = dy - Math.floor(dy);
                        int stripe = (int) fx;
                        if (fy > 0.8 || fx - stripe > 0.75) {
                            continue; // the dark gap between sub-pixels
                        }
                        double v = gain * ((rgb >> (16 - 8 * stripe)) & 0xff);
                        if (stripe == 0) {
                            r += v;
                        } else if (stripe == 1) {
                            g += v;
                        } else {
                            b += v;
                        }
                    }
                }
                out.setRGB(x, y, (clip(r / 9) << 16) | (clip(g / 9) << 8) | clip(b / 9));
            }
        }
        return jpegQuality > 0 ? jpeg(out, jpegQuality) : png(out);
    }

    private static int clip(double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }

    public static byte[] png(BufferedImage img) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(img, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static byte[] jpeg(BufferedImage img, float quality) {
        try {
            ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
                writer.setOutput(stream);
                writer.write(null, new IIOImage(copy(img), null, null), param);
            }
            writer.dispose();
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void drawMrz(Graphics2D g, String[] lines, int w, int h, int chars) {
        int size = 10;
        Font font;
        do {
            size++;
            font = OCR_B.deriveFont((float) size);
        } while (g.getFontMetrics(font).stringWidth("<".repeat(chars)) < w - 110);
        g.setFont(font);
        g.setColor(new Color(0x12, 0x12, 0x14));
        int lineHeight = (int) (size * 1.45);
        int y = h - 45 - lineHeight * (lines.length - 1);
        for (String line : lines) {
            g.drawString(line, 55, y);
            y += lineHeight;
        }
    }

    private static void drawPortrait(Graphics2D g, BufferedImage portrait, int x, int y, int w, int h) {
        if (portrait == null) {
            g.setColor(new Color(0xbb, 0xbb, 0xbb));
            g.fillRect(x, y, w, h);
            return;
        }
        // cover: scale to fill the box, centred
        double scale = Math.max((double) w / portrait.getWidth(), (double) h / portrait.getHeight());
        int sw = (int) (w / scale);
        int sh = (int) (h / scale);
        int sx = (portrait.getWidth() - sw) / 2;
        int sy = (portrait.getHeight() - sh) / 2;
        g.drawImage(portrait, x, y, x + w, y + h, sx, sy, sx + sw, sy + sh, null);
    }

    private static BufferedImage background(int w, int h, Color a, Color b) {
        BufferedImage page = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = graphics(page);
        g.setPaint(new GradientPaint(0, 0, a, w, h, b));
        g.fillRect(0, 0, w, h);
        g.setColor(new Color(b.getRed(), b.getGreen(), b.getBlue(), 90));
        for (int i = -h; i < w; i += 18) {
            g.drawLine(i, 0, i + h / 2, h / 2 - 60);
        }
        g.dispose();
        return page;
    }

    private static Graphics2D graphics(BufferedImage img) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        return g;
    }

    private static BufferedImage copy(BufferedImage img) {
        BufferedImage out = new BufferedImage(img.getWidth(), img.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.drawImage(img, 0, 0, null);
        g.dispose();
        return out;
    }

    private static String off(String line, int at) {
        char c = line.charAt(at);
        return line.substring(0, at) + (char) ('0' + (c - '0' + 1) % 10) + line.substring(at + 1);
    }

    private static String pad(String s, int n) {
        return (s + "<".repeat(n)).substring(0, n);
    }
}
