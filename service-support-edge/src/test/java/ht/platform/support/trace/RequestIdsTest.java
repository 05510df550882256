package ht.platform.support.trace;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestIdsTest {

    @Test
    void everyIdIsNewAcrossBatchesAndThreads() throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            threads.submit(() -> {
                for (int i = 0; i < 1_000; i++) {
                    String id = RequestIds.newId();
                    assertTrue(id.matches("req_[0-9a-f]{24}"), id);
                    seen.add(id);
                }
            });
        }
        threads.shutdown();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(4_000, seen.size());
    }

    @Test
    void idsOfOneBatchShareNoBytes() {
        Set<String> parts = new HashSet<>();
        for (int i = 0; i < 64; i++) {
            String id = RequestIds.newId().substring(4);
            for (int k = 0; k < 24; k += 8) {
                parts.add(id.substring(k, k + 8));
            }
        }
        assertTrue(parts.size() > 190, "192 random 4-byte parts, " + parts.size() + " distinct");
    }
}
