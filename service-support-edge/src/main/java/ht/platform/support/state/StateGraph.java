package ht.platform.support.state;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The allowed moves between the states of one kind of object, checked inside each move under the object's row lock
 * (checkout's payment intents, the gateway's payments and withdrawals, kyc's verifications).
 */
public final class StateGraph {

    private final Map<String, Set<String>> next;

    private StateGraph(Map<String, Set<String>> next) {
        this.next = Map.copyOf(next);
    }

    /** {@code next}: for each state, the states it may move to; a state without an entry is final. */
    public static StateGraph of(Map<String, Set<String>> next) {
        return new StateGraph(next);
    }

    public boolean canMove(String from, String to) {
        return next.getOrDefault(from, Set.of()).contains(to);
    }

    /** The states a move to {@code to} may start from, for an error message. */
    public Set<String> from(String to) {
        Set<String> out = new LinkedHashSet<>();
        next.forEach((state, targets) -> {
            if (targets.contains(to)) {
                out.add(state);
            }
        });
        return out;
    }

    public boolean isFinal(String state) {
        return next.getOrDefault(state, Set.of()).isEmpty();
    }
}
