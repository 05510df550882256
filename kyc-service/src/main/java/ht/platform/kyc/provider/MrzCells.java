package ht.platform.kyc.provider;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.FontRenderContext;
import java.awt.image.BufferedImage;
import java.io.InputStream;

/**
 * A second reader of an MRZ line, for what OCR misreads: ICAO 9303 prints the MRZ in OCR-B, monospaced, so a line of
 * {@code n} characters is {@code n} cells of one pitch; each cell is compared with the 37 glyphs drawn in OCR-B at the
 * line's pitch (normalised cross-correlation, so light and contrast do not matter), following the line cell by cell
 * (a slight slant or a pitch a little off is absorbed by the few pixels each cell may move from where the last one
 * was). The OCR-B font is Matthew Skala's public-domain OCR-B (Debian fonts-ocr-b 0.3).
 */
final class MrzCells {

    static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";
    private static final Font OCR_B = load();
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

    /** The line read as {@code chars} characters, or empty when the font is missing or the line is too small. */
    static String read(int[][] grey, MrzBand.Line line, int chars) {
        if (OCR_B == null || line.width() < chars * 6) {
            return "";
        }
        double pitch0 = line.width() / (chars - 0.4);
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
        double total = 0;
        for (int i = 0; i < chars; i++) {
            int rx = i == 0 ? (int) Math.ceil(pitch / 2) : slackX;
            int ry = i == 0 ? Math.max(slackY, line.height() / 3) : slackY;
            double[] match = best(grey, t, (int) Math.round(x), (int) Math.round(y), rx, ry, found);
            out.append(ALPHABET.charAt((int) match[0]));
            total += match[1];
            x = found[0] + pitch;
            y = found[1];
        }
        return total / chars;
    }

    /** The best glyph and its correlation over every position within {@code rx, ry} of {@code (x0, y0)}. */
    private static double[] best(int[][] grey, Templates t, int x0, int y0, int rx, int ry, int[] at) {
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
