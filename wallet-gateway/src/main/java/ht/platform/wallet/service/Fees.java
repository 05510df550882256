package ht.platform.wallet.service;

/** Fee rule: basis points of the amount, rounded up to a whole unit, never below the minimum. */
public final class Fees {

    private Fees() { }

    public static long fee(long amount, int basisPoints, long minimum) {
        long proportional = Math.floorDiv(Math.multiplyExact(amount, (long) basisPoints) + 9_999L, 10_000L);
        return Math.max(minimum, proportional);
    }
}
