package ht.platform.kyc.provider;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the MRZ on the ink of a document photo ({@link BandImage#ink}): the skew from the text lines themselves (the
 * angle at which the glyph strokes' row projection is sharpest; long strokes such as a table edge or a shadow are left
 * out) and, on the straightened photo, the text lines that look like MRZ lines (rows with many short strokes close
 * together), grouped into runs of lines of one size one under the other, bottom first.
 */
final class MrzBand {

    /** One text line: rows top (inclusive) to bottom (exclusive), columns left to right. */
    record Line(int top, int bottom, int left, int right) {
        int height() {
            return bottom - top;
        }

        int width() {
            return right - left;
        }

        /** The pitch of {@code chars} monospaced characters filling the line (the last one's trailing space not inked). */
        double pitch(int chars) {
            return width() / (chars - 0.4);
        }
    }

    private MrzBand() { }

    /** The longest run of ink that still counts as a glyph stroke, for an image {@code w} wide. */
    static int maxStroke(int w) {
        return Math.max(3, w / 40);
    }

    /** The angle in degrees (within ±{@code range}) that makes the stroke rows sharpest; 0.1° steps near the best. */
    static double skew(boolean[][] ink, double range) {
        return skew(ink, 0, range);
    }

    /** As {@link #skew(boolean[][], double)} over the rows from {@code fromRow} down only. */
    static double skew(boolean[][] ink, int fromRow, double range) {
        int h = ink.length;
        int w = ink[0].length;
        int step = Math.max(1, w / 700);
        int maxRun = maxStroke(w);
        List<int[]> points = new ArrayList<>();
        for (int y = fromRow; y < h; y += step) {
            boolean[] row = ink[y];
            int x = 0;
            while (x < w) {
                if (!row[x]) {
                    x++;
                    continue;
                }
                int start = x;
                while (x < w && row[x]) {
                    x++;
                }
                if (x - start <= maxRun) {
                    for (int i = start; i < x; i += step) {
                        points.add(new int[] {i, y});
                    }
                }
            }
        }
        double best = 0;
        double bestScore = score(points, 0, w, h, step);
        for (double a = -range; a <= range + 1e-9; a += 0.5) {
            double s = score(points, a, w, h, step);
            if (s > bestScore) {
                bestScore = s;
                best = a;
            }
        }
        double coarse = best;
        for (double a = coarse - 0.4; a <= coarse + 0.4 + 1e-9; a += 0.1) {
            double s = score(points, a, w, h, step);
            if (s > bestScore) {
                bestScore = s;
                best = a;
            }
        }
        return Math.round(best * 10) / 10.0;
    }

    /** The row below which half of the glyph ink lies: the lower part of the document, where its MRZ is. */
    static int inkMiddle(boolean[][] ink) {
        long[] rows = new long[ink.length];
        long total = 0;
        for (int y = 0; y < ink.length; y++) {
            for (boolean b : ink[y]) {
                rows[y] += b ? 1 : 0;
            }
            total += rows[y];
        }
        long seen = 0;
        for (int y = 0; y < ink.length; y++) {
            seen += rows[y];
            if (2 * seen >= total) {
                return y;
            }
        }
        return 0;
    }

    /** Sum of squared counts of the points' rows when the image is turned by {@code degrees}. */
    private static double score(List<int[]> points, double degrees, int w, int h, int step) {
        double sin = Math.sin(Math.toRadians(degrees));
        double cos = Math.cos(Math.toRadians(degrees));
        int[] rows = new int[(h + w) / step + 4];
        for (int[] p : points) {
            int r = (int) Math.round((p[0] * sin + p[1] * cos) / step) + w / step + 2;
            if (r >= 0 && r < rows.length) {
                rows[r]++;
            }
        }
        double score = 0;
        for (int r : rows) {
            score += (double) r * r;
        }
        return score;
    }

    /** The text lines that look like MRZ lines, top to bottom, below the photo's top fifth. */
    static List<Line> lines(boolean[][] ink) {
        int h = ink.length;
        int w = ink[0].length;
        int maxRun = maxStroke(w);
        int maxGap = Math.max(6, w / 32);
        int[][] rows = new int[h][];
        for (int y = h / 5; y < h; y++) {
            rows[y] = strokeCluster(ink[y], maxRun, maxGap, w / 4);
        }
        List<Line> lines = new ArrayList<>();
        int y = h / 5;
        while (y < h) {
            if (rows[y] == null) {
                y++;
                continue;
            }
            int top = y;
            List<Integer> lefts = new ArrayList<>();
            List<Integer> rights = new ArrayList<>();
            int gap = 0;
            int bottom = y;
            while (y < h && gap <= 2) {
                if (rows[y] != null) {
                    lefts.add(rows[y][0]);
                    rights.add(rows[y][1]);
                    bottom = y;
                    gap = 0;
                } else {
                    gap++;
                }
                y++;
            }
            if (bottom - top >= 6) {
                int pad = Math.max(2, (bottom - top) / 5);
                // a quarter of the rows in from either end: the rows where another object touches the line do not widen it
                lefts.sort(null);
                rights.sort(null);
                lines.add(new Line(Math.max(0, top - pad), Math.min(h, bottom + pad + 1), lefts.get(lefts.size() / 4),
                        rights.get(rights.size() * 3 / 4)));
            }
        }
        return lines;
    }

    /** The widest cluster of short strokes (gaps at most {@code maxGap}) on one row, as {left, right}, if at least 12 strokes span {@code minSpan}. */
    private static int[] strokeCluster(boolean[] row, int maxRun, int maxGap, int minSpan) {
        int w = row.length;
        int[] best = null;
        int count = 0;
        int first = -1;
        int last = -1;
        int x = 0;
        while (x <= w) {
            if (x < w && !row[x]) {
                x++;
                continue;
            }
            int start = x;
            while (x < w && row[x]) {
                x++;
            }
            boolean stroke = x < w && x - start <= maxRun;
            if (x >= w || !stroke || start - last > maxGap) {
                if (count >= 12 && last - first >= minSpan && (best == null || last - first > best[1] - best[0])) {
                    best = new int[] {first, last};
                }
                count = 0;
                first = -1;
            }
            if (stroke) {
                if (first < 0) {
                    first = start;
                }
                count++;
                last = x;
            }
            if (x >= w) {
                break;
            }
        }
        return best;
    }

    /**
     * Runs of consecutive lines of about one height and one horizontal extent, each close under the one before:
     * the MRZ is one of them. Bottom-most run first.
     */
    static List<List<Line>> runs(List<Line> lines) {
        List<List<Line>> runs = new ArrayList<>();
        List<Line> current = new ArrayList<>();
        for (Line line : lines) {
            if (!current.isEmpty() && !follows(current.get(current.size() - 1), line)) {
                runs.add(0, current);
                current = new ArrayList<>();
            }
            current.add(line);
        }
        if (!current.isEmpty()) {
            runs.add(0, current);
        }
        runs.removeIf(r -> r.size() < 2);
        return runs;
    }

    private static boolean follows(Line above, Line below) {
        double ratio = (double) Math.max(above.height(), below.height()) / Math.min(above.height(), below.height());
        int overlap = Math.min(above.right(), below.right()) - Math.max(above.left(), below.left());
        return ratio <= 1.7 && overlap >= 0.7 * Math.min(above.width(), below.width())
                && below.top() - above.bottom() <= 1.5 * Math.max(above.height(), below.height());
    }
}
