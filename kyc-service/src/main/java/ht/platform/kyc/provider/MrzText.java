package ht.platform.kyc.provider;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Repairs what OCR gives back for an MRZ and parses it: each line is fitted field by field (fixed positions kept, the
 * fillers OCR miscounts padded or trimmed), each position corrected by its field type (a digit field reads O as 0, a
 * letter field 0 as O), and parsed as TD3 or TD1 with every check digit. In the document number, where letters and
 * digits both belong, an O that OCR read may be tried as 0 (settled by the number's check digit and the composite), and
 * a number that passes with O and with 0 alike is read with 0.
 */
final class MrzText {

    private MrzText() { }

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

    /** Picks the MRZ lines out of the OCR text, corrects them by field type and parses them. */
    static MrzReader.Reading interpret(String text, LocalDate today) {
        MrzReader.Reading whole = interpret(lines(text, false), today, true);
        // something printed beside the MRZ is read on its lines too, apart by a space: the longest piece of each line
        return whole.status() == MrzReader.Status.read || !text.contains(" ") ? whole
                : better(whole, interpret(lines(text, true), today, true));
    }

    /**
     * The lines {@link MrzCells} read, one glyph per cell: corrected by field type like OCR text, but an O of the
     * document number is not tried as 0 to make its check digit hold (the cell saw its shape, and read it 0 when O
     * matched hardly better).
     */
    static MrzReader.Reading interpretCells(String text, LocalDate today) {
        return interpret(lines(text, false), today, false);
    }

    private static List<String> lines(String text, boolean longestPiece) {
        List<String> lines = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String kept = longestPiece ? java.util.Arrays.stream(raw.strip().split("\\s+"))
                    .max(java.util.Comparator.comparingInt(String::length)).orElse("") : raw;
            String line = kept.replaceAll("[^A-Z0-9<]", "");
            if (line.length() >= 20) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static MrzReader.Reading interpret(List<String> lines, LocalDate today, boolean swapZeroes) {
        MrzReader.Reading best = MrzReader.Reading.unreadable();
        for (List<String> variant : variants(lines)) {
            MrzReader.Reading r = candidates(variant, today, swapZeroes);
            if (r.status() == MrzReader.Status.read) {
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

    private static MrzReader.Reading candidates(List<String> lines, LocalDate today, boolean swapZeroes) {
        MrzReader.Reading best = MrzReader.Reading.unreadable();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).length() > 32 || lines.get(i + 1).length() > 32) {
                MrzReader.Reading r = attempt(td3(lines.get(i), lines.get(i + 1)), today, swapZeroes);
                if (r.status() == MrzReader.Status.read) {
                    return r;
                }
                best = better(best, r);
            }
            if (i + 2 < lines.size()) {
                MrzReader.Reading r = attempt(td1(lines.get(i), lines.get(i + 1), lines.get(i + 2)), today, swapZeroes);
                if (r.status() == MrzReader.Status.read) {
                    return r;
                }
                best = better(best, r);
            }
        }
        return best;
    }

    private static MrzReader.Reading better(MrzReader.Reading a, MrzReader.Reading b) {
        return a.status() == MrzReader.Status.unreadable ? b : a;
    }

    private static MrzReader.Reading attempt(String mrz, LocalDate today, boolean swapZeroes) {
        if (mrz == null) {
            return MrzReader.Reading.unreadable();
        }
        int start = mrz.startsWith("P") ? 45 : 5;
        MrzReader.Reading first = parsed(mrz, today);
        if (first.status() == MrzReader.Status.read) {
            // two O read for 0 can leave the check digits holding (their weights add up to 10): digits win then
            String digits = mrz.substring(0, start) + mrz.substring(start, start + 9).replace('O', '0') + mrz.substring(start + 9);
            MrzReader.Reading asDigits = digits.equals(mrz) ? first : parsed(digits, today);
            return asDigits.status() == MrzReader.Status.read ? asDigits : first;
        }
        if (first.status() != MrzReader.Status.checksum_failed || !swapZeroes) {
            return first;
        }
        // OCR reads OCR-B's 0 as O: the O's of the document number are tried as 0, settled by its own check digit and the
        // composite. Never the other way: a 0 swapped for an O (or a letter for a digit, S for 5) can make a number
        // misread elsewhere pass both check digits (seen on a specimen: T22000129 read 122000129, passing as 1220OO129)
        List<Integer> ambiguous = new ArrayList<>();
        for (int i = start; i < start + 9; i++) {
            if (mrz.charAt(i) == 'O') {
                ambiguous.add(i);
            }
        }
        if (ambiguous.size() > 4) {
            return first;
        }
        for (int mask = (1 << ambiguous.size()) - 1; mask >= 1; mask--) { // every O as 0 first
            char[] c = mrz.toCharArray();
            for (int b = 0; b < ambiguous.size(); b++) {
                if ((mask >> b & 1) == 1) {
                    c[ambiguous.get(b)] = '0';
                }
            }
            MrzReader.Reading swapped = parsed(new String(c), today);
            if (swapped.status() == MrzReader.Status.read) {
                return swapped;
            }
        }
        return first;
    }

    private static MrzReader.Reading parsed(String mrz, LocalDate today) {
        try {
            Mrz.Data data = Mrz.parse(mrz, today);
            return new MrzReader.Reading(MrzReader.Status.read, data, data.format());
        } catch (Mrz.MrzException e) {
            return new MrzReader.Reading(e.checksum() ? MrzReader.Status.checksum_failed : MrzReader.Status.unreadable, null, null);
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
}
