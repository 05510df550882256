package ht.platform.kyc.provider;

import java.time.LocalDate;
import java.util.Optional;

/**
 * ICAO 9303 machine-readable zones: TD3 (passports, two lines of 44 characters) and TD1 (identity cards, three
 * lines of 30), every check digit validated (document number, birth date, expiry date, optional data where the
 * format has a digit for it, composite).
 */
public final class Mrz {

    /** Parsed data: kept in memory during the decision only, never stored or exposed. */
    public record Data(String format, String documentCode, String issuingState, String documentNumber, String nationality,
                       LocalDate birthDate, char sex, LocalDate expiryDate) { }

    public static final class MrzException extends Exception {
        private final boolean checksum;

        MrzException(String message, boolean checksum) {
            super(message, null, false, false);
            this.checksum = checksum;
        }

        public boolean checksum() {
            return checksum;
        }
    }

    private Mrz() { }

    /** TD3 or TD1, chosen by the number and length of the lines. */
    public static Data parse(String text, LocalDate today) throws MrzException {
        String[] lines = lines(text);
        if (lines.length == 2) {
            return parseTd3(text, today);
        }
        if (lines.length == 3) {
            return parseTd1(text, today);
        }
        throw new MrzException("an MRZ has two lines of 44 or three lines of 30 characters", false);
    }

    public static Data parseTd3(String text, LocalDate today) throws MrzException {
        String[] lines = lines(text);
        if (lines.length != 2) {
            throw new MrzException("a TD3 MRZ has two lines", false);
        }
        String l1 = lines[0];
        String l2 = lines[1];
        shape(l1, 44);
        shape(l2, 44);
        if (l1.charAt(0) != 'P') {
            throw new MrzException("not a passport MRZ", false);
        }
        String number = l2.substring(0, 9);
        check(number, l2.charAt(9), "document number");
        String birth = l2.substring(13, 19);
        check(birth, l2.charAt(19), "birth date");
        String expiry = l2.substring(21, 27);
        check(expiry, l2.charAt(27), "expiry date");
        String personal = l2.substring(28, 42);
        char personalCheck = l2.charAt(42);
        if (!(personalCheck == '<' && personal.chars().allMatch(c -> c == '<'))) {
            check(personal, personalCheck, "personal number");
        }
        String composite = l2.substring(0, 10) + l2.substring(13, 20) + l2.substring(21, 43);
        check(composite, l2.charAt(43), "composite");
        return data("TD3", l1.substring(0, 2), l1.substring(2, 5), number, l2.substring(10, 13), birth, l2.charAt(20), expiry, today);
    }

    /** TD1: line 1 code, state, number, check, optional data; line 2 birth, sex, expiry, nationality, composite; line 3 name. */
    public static Data parseTd1(String text, LocalDate today) throws MrzException {
        String[] lines = lines(text);
        if (lines.length != 3) {
            throw new MrzException("a TD1 MRZ has three lines", false);
        }
        String l1 = lines[0];
        String l2 = lines[1];
        shape(l1, 30);
        shape(l2, 30);
        shape(lines[2], 30);
        if ("IACD".indexOf(l1.charAt(0)) < 0) {
            throw new MrzException("not an identity card MRZ", false);
        }
        String number = l1.substring(5, 14);
        check(number, l1.charAt(14), "document number");
        String birth = l2.substring(0, 6);
        check(birth, l2.charAt(6), "birth date");
        String expiry = l2.substring(8, 14);
        check(expiry, l2.charAt(14), "expiry date");
        String composite = l1.substring(5, 30) + l2.substring(0, 7) + l2.substring(8, 15) + l2.substring(18, 29);
        check(composite, l2.charAt(29), "composite");
        return data("TD1", l1.substring(0, 2), l1.substring(2, 5), number, l2.substring(15, 18), birth, l2.charAt(7), expiry, today);
    }

    private static Data data(String format, String code, String state, String number, String nationality, String birth, char sex,
                             String expiry, LocalDate today) throws MrzException {
        if (sex != 'M' && sex != 'F' && sex != '<' && sex != 'X') {
            throw new MrzException("invalid sex field", false);
        }
        return new Data(format, code.replace("<", ""), state.replace("<", ""), number.replace("<", ""), nationality.replace("<", ""),
                date(birth, today, true), sex, date(expiry, today, false));
    }

    private static String[] lines(String text) {
        String[] lines = text.strip().toUpperCase().replace("\r", "").split("\n");
        for (int i = 0; i < lines.length; i++) {
            lines[i] = lines[i].strip().replace(' ', '<');
        }
        return lines;
    }

    private static void shape(String line, int length) throws MrzException {
        if (line.length() != length || !line.matches("[A-Z0-9<]+")) {
            throw new MrzException("each line has " + length + " characters A-Z, 0-9 or <", false);
        }
    }

    /** ICAO 9303 check digit: weights 7, 3, 1; digits as values, A-Z as 10-35, filler as 0. */
    public static int checkDigit(String field) {
        int[] weights = {7, 3, 1};
        int sum = 0;
        for (int i = 0; i < field.length(); i++) {
            sum += value(field.charAt(i)) * weights[i % 3];
        }
        return sum % 10;
    }

    private static int value(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A' + 10;
        }
        return 0;
    }

    private static void check(String field, char digit, String what) throws MrzException {
        if (digit < '0' || digit > '9' || checkDigit(field) != digit - '0') {
            throw new MrzException("check digit of the " + what + " is wrong", true);
        }
    }

    private static LocalDate date(String yymmdd, LocalDate today, boolean past) throws MrzException {
        if (!yymmdd.matches("\\d{6}")) {
            throw new MrzException("invalid date", false);
        }
        int yy = Integer.parseInt(yymmdd.substring(0, 2));
        int century = today.getYear() / 100 * 100;
        int year = century + yy;
        if (past && year > today.getYear()) {
            year -= 100;
        }
        if (!past && year < today.getYear() - 50) {
            year += 100;
        }
        try {
            return LocalDate.of(year, Integer.parseInt(yymmdd.substring(2, 4)), Integer.parseInt(yymmdd.substring(4, 6)));
        } catch (Exception e) {
            throw new MrzException("invalid date", false);
        }
    }

    public static Optional<Data> tryParse(String text, LocalDate today) {
        try {
            return Optional.of(parse(text, today));
        } catch (MrzException e) {
            return Optional.empty();
        }
    }
}
