package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the machine-readable zone from a document photo: the photo is cleaned ({@link BandImage}: grey, local
 * threshold), straightened by the skew of its own text lines and the MRZ lines found ({@link MrzBand}); each candidate
 * band is read by Tesseract ({@link TesseractProcess}, A-Z 0-9 &lt; only) and what it gives back repaired and parsed
 * with every check digit ({@link MrzText}).
 */
public final class MrzReader {

    public enum Status { read, checksum_failed, unreadable }

    /** The MRZ layouts read: TD1 (identity cards, three lines of 30) and TD3 (passports, two lines of 44). */
    public enum Format {
        TD1(30), TD3(44);

        final int chars;

        Format(int chars) {
            this.chars = chars;
        }

        /** The one layout a document of this type carries (a passport's TD3, a card's TD1). */
        public static Format of(String documentType) {
            return "passport".equals(documentType) ? TD3 : TD1;
        }
    }

    /** What was read; {@code data} only when every check digit holds. In memory for the decision only. */
    public record Reading(Status status, Mrz.Data data, String format) {
        static Reading unreadable() {
            return new Reading(Status.unreadable, null, null);
        }
    }

    private static final String WHITELIST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<";
    /** The skew searched: a document photographed by hand is within a few degrees of level. */
    private static final double MAX_SKEW = 10;
    /** Bands read at most: the bottom-most runs of lines, where the MRZ is. */
    private static final int MAX_RUNS = 2;

    private final TesseractProcess tesseract;

    /**
     * At most this many OCR runs per photo: a document is read within the first few bands, while a photo without an
     * MRZ (a blank page, a texture) offers many band-like runs, and reading them all would outlast the decision.
     */
    static final int OCR_BUDGET = 6;

    /** What is left of a photo's OCR runs. */
    private static final class Budget {
        int left = OCR_BUDGET;

        boolean spend(int runs) {
            if (left < runs) {
                return false;
            }
            left -= runs;
            return true;
        }
    }

    public MrzReader(String command, Duration timeout) {
        this.tesseract = new TesseractProcess(command, timeout);
    }

    /** The engine's version line, or empty when the command does not run here. */
    public Optional<String> version() {
        return tesseract.version();
    }

    /** The skew of the document's text lines in degrees (what the read straightens before it looks for the MRZ). */
    public static double skew(BufferedImage image) {
        int[][] grey = BandImage.grey(image);
        return MrzBand.skew(glyphs(grey), MAX_SKEW);
    }

    /** The MRZ in either layout (a document of unknown type). */
    public Reading read(byte[] image, LocalDate today) {
        return read(image, today, EnumSet.allOf(Format.class));
    }

    /**
     * The MRZ of a document of a known layout: only bands of that layout are given to OCR (a band of the other layout
     * could never pass the check, and the OCR budget is left to those that can); a band of the other layout is still
     * read cell by cell, so a card shown where a passport was asked for is named as such.
     */
    public Reading read(byte[] image, LocalDate today, Format format) {
        return read(image, today, EnumSet.of(format));
    }

    private Reading read(byte[] image, LocalDate today, Set<Format> ocr) {
        BufferedImage decoded = ImageQuality.decode(image);
        if (decoded == null) {
            return Reading.unreadable();
        }
        int[][] grey = BandImage.grey(decoded);
        boolean[][] glyphs = glyphs(grey);
        double whole = MrzBand.skew(glyphs, MAX_SKEW);
        Budget budget = new Budget();
        Reading best = read(grey, whole, today, ocr, budget);
        if (best.status() == Status.read) {
            return best;
        }
        // perspective turns the lines of the page's lower part, where the MRZ is, differently from its header
        double lower = MrzBand.skew(glyphs, MrzBand.inkMiddle(glyphs), MAX_SKEW);
        if (Math.abs(lower - whole) >= 0.3) {
            Reading second = read(grey, lower, today, ocr, budget);
            if (second.status() != Status.unreadable) {
                return second;
            }
        }
        return best;
    }

    private Reading read(int[][] grey, double angle, LocalDate today, Set<Format> ocr, Budget budget) {
        int[][] level = angle == 0 ? grey : BandImage.straighten(grey, angle);
        List<List<MrzBand.Line>> runs = MrzBand.runs(MrzBand.lines(glyphs(level)));
        Reading best = Reading.unreadable();
        for (List<MrzBand.Line> run : runs.subList(0, Math.min(MAX_RUNS, runs.size()))) {
            for (List<MrzBand.Line> lines : candidates(run)) {
                Format format = lines.size() == 3 ? Format.TD1 : Format.TD3;
                boolean byOcr = ocr.contains(format) && budget.spend(format == Format.TD1 ? 2 : 3);
                Reading reading = byOcr ? read(level, lines, today) : cells(level, lines, format.chars, today);
                if (reading.status() == Status.read) {
                    return reading;
                }
                if (best.status() == Status.unreadable) {
                    best = reading;
                }
            }
        }
        return best;
    }

    /**
     * The glyph ink of the photo: the local threshold over a neighbourhood a few glyphs wide, blobs taller than a
     * glyph can be dropped (for a document that fills most of the photo, an MRZ glyph is about a fortieth of its width).
     */
    private static boolean[][] glyphs(int[][] grey) {
        int w = grey[0].length;
        return BandImage.glyphs(BandImage.ink(grey, Math.max(15, w / 40) | 1), Math.max(12, w / 20));
    }

    /** The bottom three lines as TD1 (identity cards), the bottom two as TD3 (passports); the likelier first. */
    private static List<List<MrzBand.Line>> candidates(List<MrzBand.Line> run) {
        int n = run.size();
        List<List<MrzBand.Line>> out = new ArrayList<>();
        if (n == 3) {
            out.add(run);
        }
        out.add(run.subList(n - 2, n));
        if (n > 3) {
            out.add(run.subList(n - 3, n));
        }
        return out;
    }

    /** One band as TD1 (three lines) or TD3 (two): cell by cell, and when that does not hold, by OCR. */
    private Reading read(int[][] grey, List<MrzBand.Line> lines, LocalDate today) {
        int chars = lines.size() == 3 ? 30 : 44;
        Reading cells = cells(grey, lines, chars, today);
        return cells.status() == Status.read ? cells : ocr(grey, lines, chars, today, cells);
    }

    /**
     * The band read cell by cell, each line over its own extent, then all over the narrowest one: every MRZ line fills
     * every cell, so a mark beside one line only widens that line (perspective makes the far lines narrower, hence both).
     */
    private static Reading cells(int[][] grey, List<MrzBand.Line> lines, int chars, LocalDate today) {
        Reading own = matched(grey, lines, chars, today);
        if (own.status() == Status.read) {
            return own;
        }
        int left = lines.stream().mapToInt(MrzBand.Line::left).max().orElseThrow();
        int right = lines.stream().mapToInt(MrzBand.Line::right).min().orElseThrow();
        List<MrzBand.Line> narrowest = lines.stream().map(line -> new MrzBand.Line(line.top(), line.bottom(), left, right)).toList();
        if (narrowest.equals(lines)) {
            return own;
        }
        Reading same = matched(grey, narrowest, chars, today);
        return same.status() == Status.read ? same : own;
    }

    private static Reading matched(int[][] grey, List<MrzBand.Line> lines, int chars, LocalDate today) {
        return MrzText.interpretCells(lines.stream().map(line -> MrzCells.read(grey, line, chars)).collect(Collectors.joining("\n")), today);
    }

    /** The band read by OCR at two scales (OCR drops or splits different glyphs at each size); else what the cells gave. */
    private Reading ocr(int[][] grey, List<MrzBand.Line> lines, int chars, LocalDate today, Reading cells) {
        int top = lines.get(0).top();
        int bottom = lines.get(lines.size() - 1).bottom();
        int height = (bottom - top) / lines.size();
        int left = lines.stream().mapToInt(MrzBand.Line::left).min().orElseThrow();
        int right = lines.stream().mapToInt(MrzBand.Line::right).max().orElseThrow();
        int pitch = (right - left) / chars;
        int pad = height / 2;
        top = Math.max(0, top - pad);
        bottom = Math.min(grey.length, bottom + pad);
        left = Math.max(0, left - pitch);
        right = Math.min(grey[0].length, right + pitch);
        Reading best = cells;
        String lastDigit = chars == 44 ? lastDigit(grey, lines.get(1)) : "";
        for (int width : new int[] {1500, 2100}) {
            String text = tesseract.read(BandImage.band(grey, top, bottom, left, right, height, width), "6", WHITELIST);
            Reading reading = MrzText.interpret(MrzText.withLastDigit(text, lastDigit), today);
            if (reading.status() == Status.read) {
                return reading;
            }
            if (reading.status() == Status.checksum_failed) {
                best = reading;
            }
        }
        return best;
    }

    /**
     * The composite check digit ends a TD3's second line after a long run of fillers, where Tesseract tends to drop
     * it or read it as a letter: that one cell (the line is monospaced) is read again on its own, digits only.
     */
    private String lastDigit(int[][] grey, MrzBand.Line line) {
        double pitch = line.pitch(44);
        int left = (int) Math.max(0, line.right() - 1.15 * pitch);
        int right = Math.min(grey[0].length, line.right() + 4);
        String read = tesseract.read(BandImage.band(grey, line.top(), line.bottom(), left, right, line.height(), 3 * (right - left)),
                "10", "0123456789").strip();
        return read.length() == 1 ? read : "";
    }
}
