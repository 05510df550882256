package ht.platform.wallet.service;

/** Fee rule: basis points of the amount, rounded up to a whole unit, never below the minimum. */
public final class Fees {

    /** What a request costs: its fee and the total (amount plus fee). */
    public record Charge(long fee, long total) { }

    private Fees() { }

    public static long fee(long amount, int basisPoints, long minimum) {
        long proportional = Math.floorDiv(Math.multiplyExact(amount, (long) basisPoints) + 9_999L, 10_000L);
        return Math.max(minimum, proportional);
    }

    public static Charge charge(long amount, int basisPoints, long minimum) {
        long fee = fee(amount, basisPoints, minimum);
        return new Charge(fee, Math.addExact(amount, fee));
    }
}
