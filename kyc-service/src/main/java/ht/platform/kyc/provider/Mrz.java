package ht.platform.kyc.provider;

import java.time.LocalDate;
import java.util.Optional;

/**
 * ICAO 9303 TD3 (passport) machine-readable zone: two lines of 44 characters, every check digit validated
 * (document number, birth date, expiry date, personal number, composite).
 */
public final class Mrz {

    /** Parsed data: kept in memory during the decision only, never stored or exposed. */
    public record Td3(String documentCode, String issuingState, String documentNumber, String nationality,
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

    public static Td3 parseTd3(String text, LocalDate today) throws MrzException {
        String[] lines = text.strip().toUpperCase().replace("\r", "").split("\n");
        if (lines.length != 2) {
            throw new MrzException("a TD3 MRZ has two lines", false);
        }
        String l1 = lines[0].strip().replace(' ', '<');
        String l2 = lines[1].strip().replace(' ', '<');
        if (l1.length() != 44 || l2.length() != 44 || !l1.matches("[A-Z0-9<]{44}") || !l2.matches("[A-Z0-9<]{44}")) {
            throw new MrzException("each TD3 line has 44 characters A-Z, 0-9 or <", false);
        }
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
        char sex = l2.charAt(20);
        if (sex != 'M' && sex != 'F' && sex != '<' && sex != 'X') {
            throw new MrzException("invalid sex field", false);
        }
        LocalDate birthDate = date(birth, today, true);
        LocalDate expiryDate = date(expiry, today, false);
        return new Td3(l1.substring(0, 2).replace("<", ""), l1.substring(2, 5).replace("<", ""), number.replace("<", ""),
                l2.substring(10, 13).replace("<", ""), birthDate, sex, expiryDate);
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

    public static Optional<Td3> tryParse(String text, LocalDate today) {
        try {
            return Optional.of(parseTd3(text, today));
        } catch (MrzException e) {
            return Optional.empty();
        }
    }
}
