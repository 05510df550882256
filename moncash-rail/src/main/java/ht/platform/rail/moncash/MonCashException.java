package ht.platform.rail.moncash;

/**
 * A MonCash call that did not give the answer asked for. {@link Kind} tells the caller what it may conclude:
 * <ul>
 *   <li>{@code REFUSED}: MonCash answered with a definitive refusal (a 4xx other than an expired token): nothing
 *       happened, e.g. a duplicate orderId, an unknown receiver or an insufficient prefunded balance;</li>
 *   <li>{@code NOT_SENT}: the request never left (the breaker is open): nothing happened;</li>
 *   <li>{@code UNKNOWN}: a timeout, a broken connection, a 5xx or an unreadable answer: the call may have taken
 *       effect, so the outcome is settled only by a later lookup.</li>
 * </ul>
 * Messages carry MonCash's own words (bounded), never credentials or tokens.
 */
public final class MonCashException extends RuntimeException {

    public enum Kind { REFUSED, NOT_SENT, UNKNOWN }

    private final Kind kind;
    private final int status;

    public MonCashException(Kind kind, int status, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status MonCash answered, 0 when there was no answer. */
    public int status() {
        return status;
    }

    /** Whether the call may have taken effect at MonCash. */
    public boolean ambiguous() {
        return kind == Kind.UNKNOWN;
    }
}
