package ht.platform.rail.moncash;

/**
 * A MonCash call that did not give the answer asked for. {@link Kind} tells the caller what it may conclude:
 * <ul>
 *   <li>{@code REFUSED}: a definitive refusal, any 4xx other than 401 and 429 (e.g. 403 "Maximum Account Balance" on a
 *       {@code Transfert}, a duplicate orderId): nothing happened and asking again will not change it;</li>
 *   <li>{@code NOT_SENT}: nothing happened and nothing was decided: the breaker held the request back, or MonCash
 *       would not read it now (401 after a renewed token, 429): it may be asked again later;</li>
 *   <li>{@code UNKNOWN}: a timeout, a broken connection, a 5xx or an unreadable answer: the call may have taken
 *       effect, so the outcome is settled only by a later lookup.</li>
 * </ul>
 * {@link #call()} names the step ({@code Transfert}, {@code PrefundedBalance}, …) and {@link #moncashMessage()}
 * MonCash's own words (bounded), never credentials or tokens.
 */
public final class MonCashException extends RuntimeException {

    public enum Kind { REFUSED, NOT_SENT, UNKNOWN }

    private final Kind kind;
    private final int status;
    private final String call;
    private final String moncashMessage;

    public MonCashException(Kind kind, int status, String message) {
        this(kind, status, null, null, message);
    }

    public MonCashException(Kind kind, int status, String call, String moncashMessage, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.status = status;
        this.call = call;
        this.moncashMessage = moncashMessage;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status MonCash answered, 0 when there was no answer. */
    public int status() {
        return status;
    }

    /** The MonCash call that failed, e.g. {@code Transfert}; null when not tied to one. */
    public String call() {
        return call;
    }

    /** The {@code message} of MonCash's error answer (e.g. "Maximum Account Balance"); null when it gave none. */
    public String moncashMessage() {
        return moncashMessage;
    }

    /** Whether the call may have taken effect at MonCash. */
    public boolean ambiguous() {
        return kind == Kind.UNKNOWN;
    }
}
