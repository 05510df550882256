package ht.platform.kyc.provider;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.FontRenderContext;
import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The first reader of an MRZ line (OCR reads what it leaves): ICAO 9303 prints the MRZ in OCR-B, monospaced, so a
 * line of {@code n} characters is {@code n} cells of one pitch; each cell is compared with the 37 glyphs drawn in OCR-B
 * at the line's pitch (normalised cross-correlation, so light and contrast do not matter), following the line cell by cell
 * (a slight slant or a pitch a little off is absorbed by the few pixels each cell may move from where the last one
 * was). The OCR-B font is Matthew Skala's public-domain OCR-B (Debian fonts-ocr-b 0.3).
 */
final class MrzCells {

    static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";
    private static final Font OCR_B = load();
    /** Below this pitch (pixels per character) OCR-B's glyphs are too few pixels to tell apart: left to OCR. */
    static final int MIN_PITCH = 8;
    /** The pitch a line is matched at when it is larger. */
    static final double WORK_PITCH = 18;
    /**
     * O and 0 differ in OCR-B only by width: a cell that matches O hardly better than 0 is read 0 (an O taken for a 0
     * fails the check digit and asks for a retry; a 0 taken for an O could pass it, two of them cancelling out).
     */
    static final double ZERO_MARGIN = 0.03;
    private static final int LETTER_O = ALPHABET.indexOf('O');
    private static final int DIGIT_ZERO = ALPHABET.indexOf('0');
    /** At font size 100: the advance of every glyph and the height of a capital. */
    private static final double ADVANCE_100;
    private static final double CAP_100;

    static {
        FontRenderContext frc = new FontRenderContext(null, true, true);
        Font f = OCR_B == null ? null : OCR_B.deriveFont(100f);
        ADVANCE_100 = f == null ? 0 : f.getStringBounds("H", frc).getWidth();
        CAP_100 = f == null ? 0 : f.createGlyphVector(frc, "H").getVisualBounds().getHeight();
    }

    private MrzCells() { }

    private static Font load() {
        try (InputStream in = MrzCells.class.getResourceAsStream("/fonts/OCRB.otf")) {
            return in == null ? null : Font.createFont(Font.TRUETYPE_FONT, in);
        } catch (Exception e) {
            return null;
        }
    }

    /** The glyphs drawn for one pitch: ink 0..1, mean removed and scaled to unit length, each {@code w × h}. */
    private record Templates(int w, int h, double[][] glyphs) { }

    /** The line read as {@code chars} characters, or empty when the font is missing or the glyphs are too small. */
    static String read(int[][] grey, MrzBand.Line line, int chars) {
        if (OCR_B == null || line.width() < chars * MIN_PITCH) {
            return "";
        }
        double pitch = line.pitch(chars);
        if (pitch > WORK_PITCH * 1.25) {
            // a large photo: the line is matched at a working size (the cost grows with the square of the glyph size)
            double k = WORK_PITCH / pitch;
            int top = Math.max(0, line.top() - line.height());
            int left = Math.max(0, (int) (line.left() - 2 * pitch));
            int bottom = Math.min(grey.length, line.bottom() + line.height());
            int right = Math.min(grey[0].length, (int) (line.right() + 2 * pitch));
            int[][] small = BandImage.shrink(grey, top, bottom, left, right, k);
            MrzBand.Line scaled = new MrzBand.Line((int) Math.round((line.top() - top) * k),
                    (int) Math.round((line.bottom() - top) * k), (int) Math.round((line.left() - left) * k),
                    (int) Math.round((line.right() - left) * k));
            return readAtSize(small, scaled, chars);
        }
        return readAtSize(grey, line, chars);
    }

    private static String readAtSize(int[][] grey, MrzBand.Line line, int chars) {
        double pitch0 = line.pitch(chars);
        String best = "";
        double bestScore = Double.NEGATIVE_INFINITY;
        for (double f : new double[] {0.97, 1.0, 1.03}) {
            double pitch = pitch0 * f;
            Templates t = templates(pitch);
            StringBuilder text = new StringBuilder(chars);
            double score = follow(grey, line, chars, pitch, t, text);
            if (score > bestScore) {
                bestScore = score;
                best = text.toString();
            }
        }
        return best;
    }

    /** Reads cell after cell; answers the mean correlation of the chosen glyphs. */
    private static double follow(int[][] grey, MrzBand.Line line, int chars, double pitch, Templates t, StringBuilder out) {
        int slackX = Math.max(2, (int) Math.round(pitch * 0.12));
        int slackY = Math.max(2, (int) Math.round(t.h() * 0.1));
        // the first cell: searched over half a pitch each way and a third of the line's height
        double x = line.left() - 0.15 * pitch;
        double y = line.top() + (line.height() - t.h()) / 2.0;
        int[] found = new int[2];
        double[] scores = new double[ALPHABET.length()];
        double total = 0;
        for (int i = 0; i < chars; i++) {
            int rx = i == 0 ? (int) Math.ceil(pitch / 2) : slackX;
            int ry = i == 0 ? Math.max(slackY, line.height() / 3) : slackY;
            double[] match = best(grey, t, (int) Math.round(x), (int) Math.round(y), rx, ry, found, scores);
            char c = ALPHABET.charAt((int) match[0]);
            if (c == 'O' && scores[DIGIT_ZERO] >= scores[LETTER_O] - ZERO_MARGIN) {
                c = '0';
            }
            out.append(c);
            total += match[1];
            x = found[0] + pitch;
            y = found[1];
        }
        return total / chars;
    }

    /** The best glyph and its correlation over every position within {@code rx, ry} of {@code (x0, y0)}. */
    private static double[] best(int[][] grey, Templates t, int x0, int y0, int rx, int ry, int[] at, double[] scores) {
        Arrays.fill(scores, -2);
        int h = grey.length;
        int w = grey[0].length;
        int n = t.w() * t.h();
        double[] patch = new double[n];
        double bestScore = -2;
        int bestGlyph = ALPHABET.length() - 1;
        for (int dy = -ry; dy <= ry; dy++) {
            for (int dx = -rx; dx <= rx; dx++) {
                int px = x0 + dx;
                int py = y0 + dy;
                if (px < 0 || py < 0 || px + t.w() > w || py + t.h() > h) {
                    continue;
                }
                double mean = 0;
                for (int yy = 0, k = 0; yy < t.h(); yy++) {
                    int[] row = grey[py + yy];
                    for (int xx = 0; xx < t.w(); xx++, k++) {
                        patch[k] = 255 - row[px + xx];
                        mean += patch[k];
                    }
                }
                mean /= n;
                double norm = 0;
                for (int k = 0; k < n; k++) {
                    patch[k] -= mean;
                    norm += patch[k] * patch[k];
                }
                if (norm < 1e-6) {
                    continue;
                }
                norm = Math.sqrt(norm);
                for (int g = 0; g < t.glyphs().length; g++) {
                    double[] tg = t.glyphs()[g];
                    double dot = 0;
                    for (int k = 0; k < n; k++) {
                        dot += tg[k] * patch[k];
                    }
                    double score = dot / norm;
                    scores[g] = Math.max(scores[g], score);
                    if (score > bestScore) {
                        bestScore = score;
                        bestGlyph = g;
                        at[0] = px;
                        at[1] = py;
                    }
                }
            }
        }
        return new double[] {bestGlyph, bestScore};
    }

    /** Each glyph drawn in a cell one pitch wide and one capital (with a pixel of margin) high. */
    private static Templates templates(double pitch) {
        float size = (float) (100 * pitch / ADVANCE_100);
        Font font = OCR_B.deriveFont(size);
        double cap = CAP_100 * size / 100;
        int w = Math.max(4, (int) Math.round(pitch));
        int h = Math.max(6, (int) Math.round(cap) + 2);
        double[][] glyphs = new double[ALPHABET.length()][];
        for (int g = 0; g < ALPHABET.length(); g++) {
            BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
            Graphics2D gr = img.createGraphics();
            gr.setColor(Color.WHITE);
            gr.fillRect(0, 0, w, h);
            gr.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            gr.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            gr.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
            gr.setFont(font);
            gr.setColor(Color.BLACK);
            gr.drawString(String.valueOf(ALPHABET.charAt(g)), 0f, (float) (1 + cap));
            gr.dispose();
            double[] v = new double[w * h];
            double mean = 0;
            for (int y = 0, k = 0; y < h; y++) {
                for (int x = 0; x < w; x++, k++) {
                    v[k] = 255 - (img.getRaster().getSample(x, y, 0));
                    mean += v[k];
                }
            }
            mean /= v.length;
            double norm = 0;
            for (int k = 0; k < v.length; k++) {
                v[k] -= mean;
                norm += v[k] * v[k];
            }
            norm = Math.sqrt(Math.max(norm, 1e-9));
            for (int k = 0; k < v.length; k++) {
                v[k] /= norm;
            }
            glyphs[g] = v;
        }
        return new Templates(w, h, glyphs);
    }
}
