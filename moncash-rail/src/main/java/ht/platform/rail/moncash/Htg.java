package ht.platform.rail.moncash;

import java.math.BigDecimal;
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

    /** Whether the amount MonCash reports is exactly the amount expected (1250 equals 1250.00). */
    public static boolean same(BigDecimal reported, BigDecimal expected) {
        return reported != null && expected != null && reported.compareTo(expected) == 0;
    }
}
