package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;

/**
 * Cleans a document photo for the MRZ read: grey levels, rotation, and a local (adaptive) threshold: a pixel is ink
 * when it is clearly darker than the mean of its neighbourhood, so a dark table, a bright sheet of paper, uneven light
 * or a shadow across the page change nothing (one threshold over the whole photo lets the background decide).
 */
final class BandImage {

    /** How much darker than its neighbourhood's mean a pixel must be to count as ink: a share and a floor in grey levels. */
    static final double INK_SHARE = 0.12;
    static final int INK_FLOOR = 12;

    private BandImage() { }

    static int[][] grey(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        int[][] g = new int[h][w];
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            image.getRGB(0, y, w, 1, row, 0, w);
            for (int x = 0; x < w; x++) {
                int rgb = row[x];
                g[y][x] = (299 * ((rgb >> 16) & 0xff) + 587 * ((rgb >> 8) & 0xff) + 114 * (rgb & 0xff)) / 1000;
            }
        }
        return g;
    }

    /** The grey image turned about its centre so that lines at {@link MrzBand#skew} {@code degrees} become level; edges repeated. */
    static int[][] straighten(int[][] g, double degrees) {
        int h = g.length;
        int w = g[0].length;
        double cos = Math.cos(Math.toRadians(degrees));
        double sin = Math.sin(Math.toRadians(degrees));
        double cx = w / 2.0;
        double cy = h / 2.0;
        int[][] out = new int[h][w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double sx = cos * (x - cx) + sin * (y - cy) + cx;
                double sy = -sin * (x - cx) + cos * (y - cy) + cy;
                out[y][x] = sample(g, sx, sy);
            }
        }
        return out;
    }

    private static int sample(int[][] g, double x, double y) {
        int h = g.length;
        int w = g[0].length;
        x = Math.max(0, Math.min(w - 1.001, x));
        y = Math.max(0, Math.min(h - 1.001, y));
        int x0 = (int) x;
        int y0 = (int) y;
        double fx = x - x0;
        double fy = y - y0;
        int x1 = Math.min(w - 1, x0 + 1);
        int y1 = Math.min(h - 1, y0 + 1);
        double top = g[y0][x0] * (1 - fx) + g[y0][x1] * fx;
        double bottom = g[y1][x0] * (1 - fx) + g[y1][x1] * fx;
        return (int) Math.round(top * (1 - fy) + bottom * fy);
    }

    /** Ink: darker than the mean of the {@code window} × {@code window} square around it (an integral image makes it linear). */
    static boolean[][] ink(int[][] g, int window) {
        int h = g.length;
        int w = g[0].length;
        long[][] sum = new long[h + 1][w + 1];
        for (int y = 0; y < h; y++) {
            long row = 0;
            for (int x = 0; x < w; x++) {
                row += g[y][x];
                sum[y + 1][x + 1] = sum[y][x + 1] + row;
            }
        }
        int r = window / 2;
        boolean[][] out = new boolean[h][w];
        for (int y = 0; y < h; y++) {
            int y0 = Math.max(0, y - r);
            int y1 = Math.min(h, y + r + 1);
            for (int x = 0; x < w; x++) {
                int x0 = Math.max(0, x - r);
                int x1 = Math.min(w, x + r + 1);
                double mean = (double) (sum[y1][x1] - sum[y0][x1] - sum[y1][x0] + sum[y0][x0]) / ((y1 - y0) * (x1 - x0));
                out[y][x] = mean - g[y][x] > Math.max(INK_FLOOR, INK_SHARE * mean);
            }
        }
        return out;
    }

    /**
     * Only the ink that can be glyphs: connected blobs (8-neighbours) no taller than {@code maxHeight} and no wider than
     * a few glyphs. A table's edge, wood grain, a cloth's weave, a pen or a shadow's border are one long or large blob
     * and are dropped; printed text anywhere stays.
     */
    static boolean[][] glyphs(boolean[][] ink, int maxHeight) {
        int h = ink.length;
        int w = ink[0].length;
        boolean[][] out = new boolean[h][w];
        boolean[][] seen = new boolean[h][w];
        int[] stack = new int[1024];
        int[] members = new int[1024];
        for (int y0 = 0; y0 < h; y0++) {
            for (int x0 = 0; x0 < w; x0++) {
                if (!ink[y0][x0] || seen[y0][x0]) {
                    continue;
                }
                int sp = 0;
                int n = 0;
                int minX = x0;
                int maxX = x0;
                int minY = y0;
                int maxY = y0;
                stack[sp++] = y0 * w + x0;
                seen[y0][x0] = true;
                while (sp > 0) {
                    int p = stack[--sp];
                    int y = p / w;
                    int x = p % w;
                    if (n == members.length) {
                        members = java.util.Arrays.copyOf(members, n * 2);
                    }
                    members[n++] = p;
                    minX = Math.min(minX, x);
                    maxX = Math.max(maxX, x);
                    minY = Math.min(minY, y);
                    maxY = Math.max(maxY, y);
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            int ny = y + dy;
                            int nx = x + dx;
                            if (ny >= 0 && ny < h && nx >= 0 && nx < w && ink[ny][nx] && !seen[ny][nx]) {
                                seen[ny][nx] = true;
                                if (sp == stack.length) {
                                    stack = java.util.Arrays.copyOf(stack, sp * 2);
                                }
                                stack[sp++] = ny * w + nx;
                            }
                        }
                    }
                }
                int height = maxY - minY + 1;
                int width = maxX - minX + 1;
                if (n >= 4 && height <= maxHeight && width <= 4 * Math.max(height, 4)) {
                    for (int i = 0; i < n; i++) {
                        out[members[i] / w][members[i] % w] = true;
                    }
                }
            }
        }
        return out;
    }

    /** The region {@code [top, bottom) × [left, right)} scaled by {@code k} < 1, each pixel the mean of what it covers. */
    static int[][] shrink(int[][] grey, int top, int bottom, int left, int right, double k) {
        int h = Math.max(1, (int) ((bottom - top) * k));
        int w = Math.max(1, (int) ((right - left) * k));
        int[][] out = new int[h][w];
        for (int y = 0; y < h; y++) {
            int y0 = top + (int) (y / k);
            int y1 = Math.max(y0 + 1, Math.min(bottom, top + (int) ((y + 1) / k)));
            for (int x = 0; x < w; x++) {
                int x0 = left + (int) (x / k);
                int x1 = Math.max(x0 + 1, Math.min(right, left + (int) ((x + 1) / k)));
                long sum = 0;
                for (int yy = y0; yy < y1; yy++) {
                    for (int xx = x0; xx < x1; xx++) {
                        sum += grey[yy][xx];
                    }
                }
                out[y][x] = (int) (sum / ((long) (y1 - y0) * (x1 - x0)));
            }
        }
        return out;
    }

    /**
     * The rows {@code top}..{@code bottom} and columns {@code left}..{@code right}, scaled (bilinear) to about
     * {@code width} pixels wide, in black and white by the local threshold over a window of about two lines' height,
     * with a white margin.
     */
    static BufferedImage band(int[][] g, int top, int bottom, int left, int right, int lineHeight, int width) {
        int w = right - left;
        double scale = Math.max(0.5, Math.min(3.0, (double) width / w));
        int ow = (int) (w * scale);
        int oh = (int) ((bottom - top) * scale);
        int[][] scaled = new int[oh][ow];
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                scaled[y][x] = sample(g, left + x / scale, top + y / scale);
            }
        }
        boolean[][] ink = ink(scaled, Math.max(9, (int) (2 * lineHeight * scale) | 1));
        BufferedImage out = new BufferedImage(ow + 40, oh + 40, BufferedImage.TYPE_BYTE_BINARY);
        var gr = out.createGraphics();
        gr.setColor(java.awt.Color.WHITE);
        gr.fillRect(0, 0, out.getWidth(), out.getHeight());
        gr.dispose();
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                if (ink[y][x]) {
                    out.setRGB(x + 20, y + 20, 0);
                }
            }
        }
        return out;
    }
}
