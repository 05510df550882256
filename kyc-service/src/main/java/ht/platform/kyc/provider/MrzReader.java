package ht.platform.kyc.provider;

import javax.imageio.ImageIO;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Reads the machine-readable zone from a document photo with Tesseract (the {@code tesseract} command of Debian's
 * tesseract-ocr, run as a process on the caller's worker thread, input on stdin, no file written): the photo is
 * turned grey and deskewed (±4°); the MRZ lines are found from the bottom as the rows with many short dark runs
 * (glyph strokes) spread over most of the width; that band is binarized (Otsu) and scaled, and read with an
 * A-Z 0-9 &lt; whitelist. Each line is fitted field by field (fixed positions kept, the fillers OCR miscounts padded
 * or trimmed), each position corrected by its field type (a digit field reads O as 0, a letter field 0 as O), and
 * parsed as TD3 or TD1 with every check digit. Only the O/0 of the document number, which OCR-B draws alike, is
 * settled by that number's own check digit; the composite digit still has to hold.
 */
public final class MrzReader {

    public enum Status { read, checksum_failed, unreadable }

    /** What was read; {@code data} only when every check digit holds. In memory for the decision only. */
    public record Reading(Status status, Mrz.Data data, String format) {
        static Reading unreadable() {
            return new Reading(Status.unreadable, null, null);
        }
    }

    private static final String WHITELIST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";

    private final String command;
    private final Duration timeout;

    public MrzReader(String command, Duration timeout) {
        this.command = command;
        this.timeout = timeout;
    }

    /** The engine's version line, or empty when the command does not run here. */
    public Optional<String> version() {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? Optional.of(out.lines().findFirst().orElse("").strip())
                    : Optional.empty();
        } catch (IOException | InterruptedException e) {
            return Optional.empty();
        }
    }

    public Reading read(byte[] image, LocalDate today) {
        BufferedImage decoded = ImageQuality.decode(image);
        if (decoded == null) {
            return Reading.unreadable();
        }
        int[][] grey = grey(decoded);
        double angle = skew(grey);
        if (angle != 0) {
            grey = grey(rotate(decoded, angle));
        }
        List<int[]> lines = mrzLines(grey);
        Reading best = Reading.unreadable();
        // the bottom three lines as TD1 (identity cards), the bottom two as TD3 (passports); most likely first
        List<int[]> td1 = lines.size() >= 3 ? lines.subList(lines.size() - 3, lines.size()) : null;
        List<int[]> td3 = lines.size() >= 2 ? lines.subList(lines.size() - 2, lines.size()) : null;
        List<Object[]> tries = new ArrayList<>();
        if (td1 != null && lines.size() == 3) {
            tries.add(new Object[] {td1, 30});
        }
        if (td3 != null) {
            tries.add(new Object[] {td3, 44});
        }
        if (td1 != null && lines.size() != 3) {
            tries.add(new Object[] {td1, 30});
        }
        for (Object[] t : tries) {
            @SuppressWarnings("unchecked")
            List<int[]> chosen = (List<int[]>) t[0];
            int top = chosen.get(0)[0];
            int bottom = chosen.get(chosen.size() - 1)[1];
            int pad = (bottom - top) / (2 * chosen.size());
            // a second scale when the first reading does not hold: OCR drops or splits different glyphs at each size
            String lastDigit = (Integer) t[1] == 44 ? lastDigit(grey, chosen.get(1)) : "";
            for (int width : new int[] {1500, 2100}) {
                String text = ocr(binarized(grey, Math.max(0, top - pad), Math.min(grey.length, bottom + pad), width), "6",
                        WHITELIST);
                Reading reading = interpret(withLastDigit(text, lastDigit), today);
                if (reading.status() == Status.read) {
                    return reading;
                }
                if (reading.status() == Status.checksum_failed) {
                    best = reading;
                }
            }
        }
        return best;
    }

    /**
     * The composite check digit ends a TD3's second line after a long run of fillers, where Tesseract tends to drop
     * it or read it as a letter: that one cell (the line is monospaced) is read again on its own, digits only.
     */
    private String lastDigit(int[][] g, int[] line) {
        double pitch = (line[3] - line[2]) / (44 - 0.4);
        int left = (int) Math.max(0, line[3] - 1.15 * pitch);
        int right = Math.min(g[0].length, line[3] + 4);
        int[][] cell = new int[line[1] - line[0]][];
        for (int y = line[0]; y < line[1]; y++) {
            cell[y - line[0]] = java.util.Arrays.copyOfRange(g[y], left, right);
        }
        String read = ocr(binarized(cell, 0, cell.length, 3 * (right - left)), "10", "0123456789").strip();
        return read.length() == 1 ? read : "";
    }

    /** The second line of a TD3 with its last character read alone, where the whole-line reading ends without a digit. */
    static String withLastDigit(String text, String digit) {
        if (digit.isEmpty()) {
            return text;
        }
        List<String> lines = new ArrayList<>(List.of(text.strip().split("\n")));
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i).replaceAll("[^A-Z0-9<]", "");
            if (line.length() >= 20) {
                if (!Character.isDigit(line.charAt(line.length() - 1))) {
                    lines.set(i, line.replaceAll("[KCEXSZ]*$", "") + digit);
                }
                break;
            }
        }
        return String.join("\n", lines);
    }

    // ------------------------------------------------------------ text

    /** Picks the MRZ lines out of the OCR text, corrects them by field type and parses them. */
    static Reading interpret(String text, LocalDate today) {
        List<String> lines = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.replaceAll("[^A-Z0-9<]", "");
            if (line.length() >= 20) {
                lines.add(line);
            }
        }
        Reading best = Reading.unreadable();
        for (List<String> variant : variants(lines)) {
            Reading r = candidates(variant, today);
            if (r.status() == Status.read) {
                return r;
            }
            best = better(best, r);
        }
        return best;
    }

    /** The lines as read, then with one 'I' that OCR split into "1I" or "I1" joined again (OCR-B's I is narrow). */
    private static List<List<String>> variants(List<String> lines) {
        List<List<String>> out = new ArrayList<>();
        out.add(lines);
        for (int k = 0; k < lines.size(); k++) {
            String line = lines.get(k);
            for (int i = 0; i + 1 < line.length(); i++) {
                String pair = line.substring(i, i + 2);
                if (pair.equals("1I") || pair.equals("I1")) {
                    List<String> copy = new ArrayList<>(lines);
                    copy.set(k, line.substring(0, i) + "I" + line.substring(i + 2));
                    out.add(copy);
                }
            }
        }
        return out;
    }

    private static Reading candidates(List<String> lines, LocalDate today) {
        Reading best = Reading.unreadable();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).length() > 32 || lines.get(i + 1).length() > 32) {
                Reading r = attempt(td3(lines.get(i), lines.get(i + 1)), today);
                if (r.status() == Status.read) {
                    return r;
                }
                best = better(best, r);
            }
            if (i + 2 < lines.size()) {
                Reading r = attempt(td1(lines.get(i), lines.get(i + 1), lines.get(i + 2)), today);
                if (r.status() == Status.read) {
                    return r;
                }
                best = better(best, r);
            }
        }
        return best;
    }

    private static Reading better(Reading a, Reading b) {
        return a.status() == Status.unreadable ? b : a;
    }

    private static Reading attempt(String mrz, LocalDate today) {
        if (mrz == null) {
            return Reading.unreadable();
        }
        Reading first = parsed(mrz, today);
        if (first.status() != Status.checksum_failed) {
            return first;
        }
        // O and 0 look the same in OCR-B; the document number may hold both, and its own check digit decides
        int start = mrz.startsWith("P") ? 45 : 5;
        List<Integer> ambiguous = new ArrayList<>();
        for (int i = start; i < start + 9; i++) {
            if (mrz.charAt(i) == 'O' || mrz.charAt(i) == '0') {
                ambiguous.add(i);
            }
        }
        if (ambiguous.size() > 4) {
            return first;
        }
        for (int mask = 1; mask < 1 << ambiguous.size(); mask++) {
            char[] c = mrz.toCharArray();
            for (int b = 0; b < ambiguous.size(); b++) {
                if ((mask >> b & 1) == 1) {
                    int i = ambiguous.get(b);
                    c[i] = c[i] == 'O' ? '0' : 'O';
                }
            }
            Reading swapped = parsed(new String(c), today);
            if (swapped.status() == Status.read) {
                return swapped;
            }
        }
        return first;
    }

    private static Reading parsed(String mrz, LocalDate today) {
        try {
            Mrz.Data data = Mrz.parse(mrz, today);
            return new Reading(Status.read, data, data.format());
        } catch (Mrz.MrzException e) {
            return new Reading(e.checksum() ? Status.checksum_failed : Status.unreadable, null, null);
        }
    }

    // field types per position: A letters (or <), N digits, X anything, S sex
    private static final String TD3_1 = "AA" + "AAA" + "A".repeat(39);
    private static final String TD3_2 = "XXXXXXXXX" + "N" + "AAA" + "NNNNNN" + "N" + "S" + "NNNNNN" + "N" + "X".repeat(14) + "X" + "N";
    private static final String TD1_1 = "AA" + "AAA" + "XXXXXXXXX" + "N" + "X".repeat(15);
    private static final String TD1_2 = "NNNNNN" + "N" + "S" + "NNNNNN" + "N" + "AAA" + "X".repeat(11) + "N";
    private static final String TD1_3 = "A".repeat(30);

    static String td3(String l1, String l2) {
        String a = name(l1, 44);
        String b = fields(l2, 44, 28, 2);
        return a == null || b == null ? null : typed(a, TD3_1) + "\n" + typed(b, TD3_2);
    }

    static String td1(String l1, String l2, String l3) {
        String a = fields(l1, 30, 15, 0);
        String b = fields(l2, 30, 18, 1);
        String c = name(l3, 30);
        return a == null || b == null || c == null ? null : typed(a, TD1_1) + "\n" + typed(b, TD1_2) + "\n" + typed(c, TD1_3);
    }

    /** A name line: only its first five characters (code, state) are used; the rest is brought to length as it is. */
    static String name(String line, int length) {
        if (line.length() < 5) {
            return null;
        }
        String fitted = line.length() >= length ? line.substring(0, length) : line + "<".repeat(length - line.length());
        return fitted.substring(0, 5) + fitted.substring(5).replaceAll("[^A-Z<]", "<");
    }

    /**
     * Brings a line to its length field by field: the first {@code head} and last {@code tail} characters are at
     * fixed positions; the variable part between them (names, optional data) ends in fillers, which OCR miscounts,
     * so it is padded or trimmed there. Letters read inside a run of fillers (K, C, E, X for a '&lt;' or two) are fillers.
     */
    static String fields(String line, int length, int head, int tail) {
        String cleaned = fillerRuns(line);
        if (cleaned.length() < head + tail + 1 || Math.abs(cleaned.length() - length) > length / 3) {
            return null;
        }
        String start = cleaned.substring(0, head);
        String end = cleaned.substring(cleaned.length() - tail);
        String middle = cleaned.substring(head, cleaned.length() - tail);
        int want = length - head - tail;
        if (middle.length() > want) {
            if (!middle.substring(want).chars().allMatch(c -> c == '<')) {
                return null;
            }
            middle = middle.substring(0, want);
        } else {
            middle = middle + "<".repeat(want - middle.length());
        }
        return start + middle + end;
    }

    static String fillerRuns(String line) {
        StringBuilder out = new StringBuilder(line);
        for (int i = 1; i < out.length(); i++) {
            if ("KCEXSZ".indexOf(out.charAt(i)) < 0 || out.charAt(i - 1) != '<') {
                continue;
            }
            int j = i;
            while (j < out.length() && "KCEXSZ".indexOf(out.charAt(j)) >= 0) {
                j++;
            }
            // a run before '<', at the end, or before the line's last character (a check digit) stands for fillers
            if (j >= out.length() - 1 || out.charAt(j) == '<') {
                for (int k = i; k < j; k++) {
                    out.setCharAt(k, '<');
                }
            }
            i = j;
        }
        return out.toString();
    }

    private static String typed(String line, String types) {
        StringBuilder out = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            char t = types.charAt(i);
            out.append(t == 'N' ? digit(c) : t == 'A' ? letter(c) : t == 'S' ? sex(c) : c);
        }
        return out.toString();
    }

    private static char digit(char c) {
        return switch (c) {
            case 'O', 'Q', 'D', 'U' -> '0';
            case 'I', 'L', 'T' -> '1';
            case 'Z' -> '2';
            case 'A' -> '4';
            case 'S' -> '5';
            case 'G' -> '6';
            case 'B' -> '8';
            default -> c;
        };
    }

    private static char letter(char c) {
        return switch (c) {
            case '0' -> 'O';
            case '1' -> 'I';
            case '2' -> 'Z';
            case '4' -> 'A';
            case '5' -> 'S';
            case '6' -> 'G';
            case '8' -> 'B';
            default -> c;
        };
    }

    private static char sex(char c) {
        return switch (c) {
            case 'H' -> 'M';
            case 'E', 'P' -> 'F';
            default -> c;
        };
    }

    // ------------------------------------------------------------ image

    static int[][] grey(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        int[][] g = new int[h][w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int rgb = image.getRGB(x, y);
                g[y][x] = (299 * ((rgb >> 16) & 0xff) + 587 * ((rgb >> 8) & 0xff) + 114 * (rgb & 0xff)) / 1000;
            }
        }
        return g;
    }

    static int otsu(int[][] g, int top, int bottom) {
        long[] hist = new long[256];
        long n = 0;
        for (int y = top; y < bottom; y++) {
            for (int v : g[y]) {
                hist[v]++;
                n++;
            }
        }
        double sum = 0;
        for (int i = 0; i < 256; i++) {
            sum += i * (double) hist[i];
        }
        double sumB = 0;
        long wB = 0;
        double best = -1;
        int threshold = 128;
        for (int t = 0; t < 256; t++) {
            wB += hist[t];
            if (wB == 0) {
                continue;
            }
            long wF = n - wB;
            if (wF == 0) {
                break;
            }
            sumB += t * (double) hist[t];
            double mB = sumB / wB;
            double mF = (sum - sumB) / wF;
            double between = (double) wB * wF * (mB - mF) * (mB - mF);
            if (between > best) {
                best = between;
                threshold = t;
            }
        }
        return threshold;
    }

    /** The small angle (degrees) that makes the text rows sharpest: maximum variance of the row projection. */
    static double skew(int[][] g) {
        int h = g.length;
        int w = g[0].length;
        int step = Math.max(1, w / 600);
        int t = otsu(g, 0, h);
        List<int[]> dark = new ArrayList<>();
        for (int y = 0; y < h; y += step) {
            for (int x = 0; x < w; x += step) {
                if (g[y][x] < t) {
                    dark.add(new int[] {x, y});
                }
            }
        }
        double bestAngle = 0;
        double bestScore = -1;
        double straight = 0;
        for (double a = -4; a <= 4.001; a += 0.5) {
            double rad = Math.toRadians(a);
            double sin = Math.sin(rad);
            double cos = Math.cos(rad);
            int[] rows = new int[(h + w) / step + 4];
            for (int[] p : dark) {
                int r = (int) Math.round((-p[0] * sin + p[1] * cos) / step) + w / step + 2;
                if (r >= 0 && r < rows.length) {
                    rows[r]++;
                }
            }
            double score = 0;
            for (int r : rows) {
                score += (double) r * r;
            }
            if (Math.abs(a) < 0.01) {
                straight = score;
            }
            if (score > bestScore) {
                bestScore = score;
                bestAngle = a;
            }
        }
        // a straight photo stays as it is unless a rotation is clearly better
        if (straight >= bestScore * 0.97) {
            return 0;
        }
        return bestAngle;
    }

    private static BufferedImage rotate(BufferedImage image, double degrees) {
        BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
        var g = out.createGraphics();
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(image, AffineTransform.getRotateInstance(Math.toRadians(-degrees), image.getWidth() / 2.0, image.getHeight() / 2.0), null);
        g.dispose();
        return out;
    }

    /**
     * The text lines that look like MRZ lines, top to bottom, as {top, bottom, left, right}: rows with many short
     * dark runs (glyph strokes; a table or a shadow makes long runs) spread over most of the width, grouped.
     */
    static List<int[]> mrzLines(int[][] g) {
        int h = g.length;
        int w = g[0].length;
        int t = otsu(g, h / 3, h);
        int maxRun = Math.max(3, w / 40);
        int[][] rows = new int[h][];
        for (int y = h / 3; y < h; y++) {
            int count = 0;
            int first = -1;
            int last = -1;
            int x = 0;
            while (x < w) {
                if (g[y][x] >= t) {
                    x++;
                    continue;
                }
                int start = x;
                while (x < w && g[y][x] < t) {
                    x++;
                }
                if (x - start <= maxRun) {
                    count++;
                    if (first < 0) {
                        first = start;
                    }
                    last = x;
                }
            }
            if (count >= 12 && last - first > w / 2) {
                rows[y] = new int[] {first, last};
            }
        }
        List<int[]> lines = new ArrayList<>();
        int y = h / 3;
        while (y < h) {
            if (rows[y] == null) {
                y++;
                continue;
            }
            int top = y;
            int left = rows[y][0];
            int right = rows[y][1];
            int gap = 0;
            int bottom = y;
            while (y < h && gap <= 2) {
                if (rows[y] != null) {
                    left = Math.min(left, rows[y][0]);
                    right = Math.max(right, rows[y][1]);
                    bottom = y;
                    gap = 0;
                } else {
                    gap++;
                }
                y++;
            }
            if (bottom - top >= 6) {
                int pad = Math.max(2, (bottom - top) / 5);
                lines.add(new int[] {Math.max(0, top - pad), Math.min(h, bottom + pad + 1), left, right});
            }
        }
        return lines;
    }

    /** The band in black and white (Otsu within the band), scaled to about {@code width} pixels wide. */
    static BufferedImage binarized(int[][] g, int top, int bottom, int width) {
        int w = g[0].length;
        int t = otsu(g, top, bottom);
        double scale = Math.max(0.5, Math.min(3.0, (double) width / w));
        int ow = (int) (w * scale);
        int oh = (int) ((bottom - top) * scale);
        BufferedImage out = new BufferedImage(ow + 40, oh + 40, BufferedImage.TYPE_BYTE_BINARY);
        var gr = out.createGraphics();
        gr.setColor(java.awt.Color.WHITE);
        gr.fillRect(0, 0, out.getWidth(), out.getHeight());
        gr.dispose();
        for (int y = 0; y < oh; y++) {
            int sy = Math.min(bottom - 1, top + (int) (y / scale));
            for (int x = 0; x < ow; x++) {
                int sx = Math.min(w - 1, (int) (x / scale));
                out.setRGB(x + 20, y + 20, g[sy][sx] < t ? 0 : 0xffffff);
            }
        }
        return out;
    }

    private String ocr(BufferedImage band, String psm, String whitelist) {
        Process process = null;
        try {
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageIO.write(band, "png", png);
            process = new ProcessBuilder(command, "stdin", "stdout", "-l", "eng", "--psm", psm,
                    "-c", "tessedit_char_whitelist=" + whitelist, "-c", "load_system_dawg=0", "-c", "load_freq_dawg=0")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(png.toByteArray());
            }
            // the text of one band is far below a pipe's buffer: wait first, so a stuck engine cannot hold the worker
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return "";
            }
            byte[] text;
            try (InputStream out = process.getInputStream()) {
                text = out.readAllBytes();
            }
            return new String(text, StandardCharsets.UTF_8).toUpperCase();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }
}
