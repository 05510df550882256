package ht.platform.rail.moncash;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * Exact conversions between our amounts and MonCash's HTG amounts (gourdes with at most two decimals, sent as a
 * JSON number written in plain notation). Never a double.
 */
public final class Htg {

    public static final String CURRENCY = "HTG";

    private Htg() { }

    /** Checkout's six-decimal amount, when MonCash can carry it exactly (at most two significant decimals). */
    public static Optional<BigDecimal> fromCheckout(BigDecimal amount) {
        if (amount == null || amount.signum() <= 0) {
            return Optional.empty();
        }
        BigDecimal stripped = amount.stripTrailingZeros();
        return stripped.scale() > 2 ? Optional.empty() : Optional.of(stripped.setScale(Math.max(0, stripped.scale())));
    }

    /** Wallet's integer gourdes. */
    public static BigDecimal fromWallet(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        return BigDecimal.valueOf(amount);
    }

    /**
     * An amount MonCash reports, in HTG cents, to the nearest cent: MonCash writes the exact expansion of a binary
     * double, so the balance sample {@code 29814021.179999999701976776123046875} is the double nearest 29,814,021.18,
     * i.e. 2,981,402,118 cents.
     */
    public static long cents(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.HALF_UP).movePointRight(2).longValueExact();
    }

    /** Whether {@code available} (as MonCash reports it) covers {@code amount}, compared in cents. */
    public static boolean covers(BigDecimal available, BigDecimal amount) {
        return cents(available) >= amount.setScale(2, RoundingMode.CEILING).movePointRight(2).longValueExact();
    }

    /** Whether the amount MonCash reports is exactly the amount expected (1250 equals 1250.00). */
    public static boolean same(BigDecimal reported, BigDecimal expected) {
        return reported != null && expected != null && reported.compareTo(expected) == 0;
    }
}
