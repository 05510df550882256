package ht.platform.support.state;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StateGraphTest {

    final StateGraph graph = StateGraph.of(Map.of(
            "requested", Set.of("processing", "cancelled"),
            "processing", Set.of("completed", "failed")));

    @Test
    void onlyTheListedMovesAreAllowed() {
        assertTrue(graph.canMove("requested", "processing"));
        assertFalse(graph.canMove("requested", "completed"), "no skipping a step");
        assertFalse(graph.canMove("completed", "processing"), "a final state never moves");
        assertFalse(graph.canMove("unknown", "processing"));
    }

    @Test
    void finalStatesAndWhereAMoveMayStart() {
        assertTrue(graph.isFinal("completed"));
        assertFalse(graph.isFinal("processing"));
        assertEquals(Set.of("processing"), graph.from("failed"));
        assertEquals(Set.of("requested"), graph.from("cancelled"));
    }
}
