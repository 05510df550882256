package ht.platform.kyc;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.Random;

/**
 * A document as a phone photographs it: lying on a surface (dark wood, white paper, a patterned cloth, a cluttered desk),
 * turned in the picture, tilted away from the camera (perspective: a pinhole camera looking at the turned plane), under
 * uneven light, with sensor noise, saved as JPEG. Each pixel of the photo is traced back to the document's plane.
 */
public final class Scenes {

    public enum Surface { dark_wood, white_paper, patterned_cloth, cluttered_desk }

    /** In-picture rotation and the tilts of the document plane (about its horizontal and vertical axes), in degrees. */
    public record Pose(double rotation, double tiltX, double tiltY) {
        public static Pose turned(double degrees) {
            return new Pose(degrees, 0, 0);
        }
    }

    private Scenes() { }

    /** The photo: the document covers about three quarters of the frame's width. */
    public static byte[] photograph(BufferedImage document, Surface surface, Pose pose, boolean unevenLight, float jpeg, long seed) {
        Random random = new Random(seed);
        int w = (int) (document.getWidth() * 1.35);
        int h = (int) (document.getHeight() * 1.45);
        BufferedImage photo = surface(surface, w, h, random);
        double f = 1.6 * w;
        double[] e1 = {1, 0, 0};
        double[] e2 = {0, 1, 0};
        e1 = rotate(e1, pose.rotation(), pose.tiltX(), pose.tiltY());
        e2 = rotate(e2, pose.rotation(), pose.tiltX(), pose.tiltY());
        double[] n = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        double[] c = {(random.nextDouble() - 0.5) * 0.04 * w, (random.nextDouble() - 0.5) * 0.04 * h, f};
        double nc = n[0] * c[0] + n[1] * c[1] + n[2] * c[2];
        int dw = document.getWidth();
        int dh = document.getHeight();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double[] d = {x - w / 2.0, y - h / 2.0, f};
                double t = nc / (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
                double qx = t * d[0] - c[0];
                double qy = t * d[1] - c[1];
                double qz = t * d[2] - c[2];
                double u = qx * e1[0] + qy * e1[1] + qz * e1[2] + dw / 2.0;
                double v = qx * e2[0] + qy * e2[1] + qz * e2[2] + dh / 2.0;
                if (u >= 0 && v >= 0 && u < dw - 1 && v < dh - 1) {
                    photo.setRGB(x, y, bilinear(document, u, v));
                }
            }
        }
        light(photo, unevenLight, random);
        return Documents.jpeg(photo, jpeg);
    }

    private static double[] rotate(double[] p, double rotation, double tiltX, double tiltY) {
        double[] r = turn(p, 0, 1, Math.toRadians(rotation));
        r = turn(r, 1, 2, Math.toRadians(tiltX));
        return turn(r, 0, 2, Math.toRadians(tiltY));
    }

    /** {@code p} turned by {@code a} radians in the plane of axes i and j. */
    private static double[] turn(double[] p, int i, int j, double a) {
        double[] r = p.clone();
        r[i] = p[i] * Math.cos(a) - p[j] * Math.sin(a);
        r[j] = p[i] * Math.sin(a) + p[j] * Math.cos(a);
        return r;
    }

    private static int bilinear(BufferedImage img, double u, double v) {
        int x0 = (int) u;
        int y0 = (int) v;
        double fx = u - x0;
        double fy = v - y0;
        int a = img.getRGB(x0, y0);
        int b = img.getRGB(x0 + 1, y0);
        int c = img.getRGB(x0, y0 + 1);
        int d = img.getRGB(x0 + 1, y0 + 1);
        int out = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
            double top = ((a >> shift) & 0xff) * (1 - fx) + ((b >> shift) & 0xff) * fx;
            double bottom = ((c >> shift) & 0xff) * (1 - fx) + ((d >> shift) & 0xff) * fx;
            out |= (int) Math.round(top * (1 - fy) + bottom * fy) << shift;
        }
        return out;
    }

    /** Light falling off from one corner to the opposite one (uneven: 1.1 down to 0.5) and sensor noise. */
    private static void light(BufferedImage photo, boolean uneven, Random random) {
        int w = photo.getWidth();
        int h = photo.getHeight();
        boolean fromLeft = random.nextBoolean();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double along = ((fromLeft ? x : w - x) / (double) w + y / (double) h) / 2;
                double gain = uneven ? 1.1 - 0.6 * along : 1.0;
                int rgb = photo.getRGB(x, y);
                int out = 0;
                double noise = random.nextGaussian() * 3;
                for (int shift = 0; shift <= 16; shift += 8) {
                    out |= clip(((rgb >> shift) & 0xff) * gain + noise) << shift;
                }
                photo.setRGB(x, y, out);
            }
        }
    }

    private static int clip(double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }

    private static BufferedImage surface(Surface surface, int w, int h, Random random) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        switch (surface) {
            case dark_wood -> {
                double phase = random.nextDouble() * 10;
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        double grain = Math.sin((y + 6 * Math.sin(x / 90.0 + phase)) / 3.5) * 0.5 + Math.sin(y / 23.0 + x / 400.0) * 0.5;
                        int r = clip(58 + 10 * grain);
                        int gg = clip(38 + 7 * grain);
                        int b = clip(26 + 5 * grain);
                        img.setRGB(x, y, r << 16 | gg << 8 | b);
                    }
                }
            }
            case white_paper -> {
                g.setColor(new Color(246, 246, 243));
                g.fillRect(0, 0, w, h);
            }
            case patterned_cloth -> {
                g.setColor(new Color(235, 225, 205));
                g.fillRect(0, 0, w, h);
                g.setColor(new Color(170, 40, 45, 150));
                for (int i = 0; i < Math.max(w, h); i += 36) {
                    g.fillRect(i, 0, 12, h);
                    g.fillRect(0, i, w, 12);
                }
                g.setColor(new Color(30, 50, 110, 120));
                for (int i = 18; i < Math.max(w, h); i += 72) {
                    g.fillRect(i, 0, 3, h);
                    g.fillRect(0, i, w, 3);
                }
            }
            case cluttered_desk -> {
                g.setColor(new Color(120, 112, 100));
                g.fillRect(0, 0, w, h);
                // a printed sheet, a notebook, a pen, a mug, a phone: objects of every shade around the document
                g.setColor(new Color(240, 238, 230));
                g.rotate(Math.toRadians(-12), w * 0.1, h * 0.2);
                g.fillRect((int) (-0.1 * w), (int) (0.05 * h), (int) (0.35 * w), (int) (0.9 * h));
                g.setColor(new Color(40, 40, 40));
                g.setFont(new Font(Font.SERIF, Font.PLAIN, 18));
                for (int y = (int) (0.08 * h); y < 0.95 * h; y += 26) {
                    g.drawString("the quarterly figures 2026 were agreed at the meeting of", (int) (-0.08 * w), y);
                }
                g.setTransform(new java.awt.geom.AffineTransform());
                g.setColor(new Color(30, 70, 140));
                g.fillRect((int) (0.72 * w), (int) (0.62 * h), (int) (0.35 * w), (int) (0.5 * h));
                g.setColor(new Color(15, 15, 18));
                g.setStroke(new BasicStroke(9, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                g.drawLine((int) (0.05 * w), (int) (0.95 * h), (int) (0.45 * w), (int) (0.85 * h));
                g.setColor(new Color(200, 60, 40));
                g.fillOval((int) (0.82 * w), (int) (-0.05 * h), (int) (0.2 * w), (int) (0.2 * w));
                g.setColor(new Color(20, 20, 22));
                g.fillRoundRect((int) (0.03 * w), (int) (0.02 * h), (int) (0.12 * w), (int) (0.22 * w), 20, 20);
            }
        }
        g.dispose();
        return img;
    }
}
