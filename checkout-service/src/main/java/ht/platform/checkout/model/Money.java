package ht.platform.checkout.model;

import ht.platform.support.errors.ApiException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.regex.Pattern;

/** Decimal-text amounts: parsed strictly, stored as NUMERIC(20,6), written with exactly six decimals. */
public final class Money {

    public static final List<String> CURRENCIES = List.of("HTG", "USD");
    public static final BigDecimal MAX = new BigDecimal("999999999999.999999");
    private static final Pattern DECIMAL = Pattern.compile("(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?");

    private Money() { }

    /** A positive decimal text with at most 6 decimals and at most 999999999999.999999. */
    public static BigDecimal parse(String param, String text) {
        if (text == null) {
            throw ApiException.invalid(param, param + " is required, as decimal text such as \"125.50\"");
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw ApiException.invalid(param, param + " must be decimal text with at most 6 decimals and 12 integer digits,"
                    + " without sign or exponent (e.g. \"125.50\")");
        }
        BigDecimal value = new BigDecimal(text).setScale(6, RoundingMode.UNNECESSARY);
        if (value.signum() <= 0) {
            throw ApiException.invalid(param, param + " must be greater than 0");
        }
        if (value.compareTo(MAX) > 0) {
            throw ApiException.invalid(param, param + " must be at most 999999999999.999999");
        }
        return value;
    }

    public static String currency(String param, String code) {
        if (code == null) {
            throw ApiException.invalid(param, param + " is required (one of " + CURRENCIES + ")");
        }
        if (!CURRENCIES.contains(code)) {
            throw ApiException.invalid(param, param + " must be one of " + CURRENCIES + " (upper case)");
        }
        return code;
    }

    public static String text(BigDecimal value) {
        return value == null ? null : value.setScale(6, RoundingMode.UNNECESSARY).toPlainString();
    }

    public static BigDecimal of(BigDecimal value) {
        return value == null ? BigDecimal.ZERO.setScale(6) : value.setScale(6, RoundingMode.UNNECESSARY);
    }
}
