package ht.platform.support.outbox;

import java.util.List;
import java.util.Objects;

/**
 * A service's words for the three delivery states ({@code pending}, {@code delivered}, {@code dead}) as its
 * document names them, e.g. checkout's {@code succeeded}, the gateway's {@code abandoned}. The outbox keeps only
 * its own three; a service turns them into its words at its JSON and page edge, and its words back in filters.
 */
public record StatusWords(String pending, String delivered, String dead) {

    public static final String PENDING = "pending";
    public static final String DELIVERED = "delivered";
    public static final String DEAD = "dead";

    /** The three as SQL literals: inlined in the outbox's queries, not bound, since its partial indexes name them. */
    public static final String SQL_PENDING = "'" + PENDING + "'";
    public static final String SQL_DEAD = "'" + DEAD + "'";

    /** The words of a service whose document uses the outbox's own. */
    public static final StatusWords OUTBOX = new StatusWords(PENDING, DELIVERED, DEAD);

    public StatusWords {
        Objects.requireNonNull(pending);
        Objects.requireNonNull(delivered);
        Objects.requireNonNull(dead);
    }

    /** The service's word for an outbox status. */
    public String word(String status) {
        return switch (status) {
            case PENDING -> pending;
            case DELIVERED -> delivered;
            case DEAD -> dead;
            default -> throw new IllegalArgumentException("not an outbox status: " + status);
        };
    }

    /** The outbox status a service word names, or null for a word the service does not use. */
    public String status(String word) {
        if (pending.equals(word)) {
            return PENDING;
        }
        if (delivered.equals(word)) {
            return DELIVERED;
        }
        return dead.equals(word) ? DEAD : null;
    }

    /** The service's words, in the order pending, delivered, dead. */
    public List<String> all() {
        return List.of(pending, delivered, dead);
    }
}
