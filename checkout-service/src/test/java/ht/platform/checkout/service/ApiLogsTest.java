package ht.platform.checkout.service;

import ht.platform.checkout.model.ApiLogEntry;
import ht.platform.checkout.model.ApiLogStore;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API log keeps up with the requests: a flush writes batches for as long as a whole one is queued, not one batch
 * (at one batch a second every line beyond 500 requests a second was dropped under load), every queued line reaches
 * the table once, with its columns, and the purge removes what is past the retention.
 */
@QuarkusTest
class ApiLogsTest {

    @Inject
    ApiLogs logs;

    @Inject
    ApiLogStore store;

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @Test
    void oneFlushWritesEveryWholeBatchQueued() {
        String owner = "own_apilogs_" + UUID.randomUUID().toString().replace("-", "");
        int lines = 4_321;
        for (int i = 0; i < lines; i++) {
            logs.record(new ApiLogEntry(0, "req_" + i, owner, "test", "key_apilogs", "GET", "/api/v1/payment_intents/pi_" + i,
                    i % 7 == 0 ? 404 : 200, i % 50, null, "{\"n\":" + i + "}", clock.instant()));
        }

        logs.flush().await().atMost(Duration.ofSeconds(60));
        assertTrue(logs.queued() < 500, "one flush leaves less than a batch queued, not " + logs.queued());

        logs.flushAll().await().atMost(Duration.ofSeconds(60)); // the remainder, as the next scheduled flush would
        Set<String> written = new HashSet<>();
        int notFound = 0;
        for (Row row : pool.preparedQuery("SELECT request_id, status FROM checkout.api_logs WHERE owner_id = $1")
                .execute(Tuple.of(owner)).await().atMost(Duration.ofSeconds(30))) {
            assertTrue(written.add(row.getString("request_id")), "written once: " + row.getString("request_id"));
            notFound += row.getInteger("status") == 404 ? 1 : 0;
        }
        assertEquals(lines, written.size(), "every queued line is written once");
        assertEquals((lines + 6) / 7, notFound, "each line keeps its own status");
        String last = pool.preparedQuery("SELECT response_body FROM checkout.api_logs WHERE owner_id = $1 AND request_id = $2")
                .execute(Tuple.of(owner, "req_" + (lines - 1))).await().atMost(Duration.ofSeconds(30)).iterator().next()
                .getString("response_body");
        assertEquals("{\"n\":" + (lines - 1) + "}", last);
    }

    @Test
    void flushingAllWritesThePartOfABatchToo() {
        String owner = "own_apiall_" + UUID.randomUUID().toString().replace("-", "");
        int lines = 1_234;
        for (int i = 0; i < lines; i++) {
            logs.record(new ApiLogEntry(0, "req_" + i, owner, "test", "key_apiall", "POST", "/api/v1/payment_intents", 201, 3,
                    "{}", "{}", clock.instant()));
        }

        logs.flushAll().await().atMost(Duration.ofSeconds(60));

        assertEquals(0, logs.queued());
        long written = pool.preparedQuery("SELECT count(*) FROM checkout.api_logs WHERE owner_id = $1").execute(Tuple.of(owner))
                .await().atMost(Duration.ofSeconds(30)).iterator().next().getLong(0);
        assertEquals(lines, written, "written when flushAll completes, the last 234 too");
    }

    @Test
    void thePurgeDeletesEveryRowBeforeTheCutoffAndNothingAfter() {
        String owner = "own_apipurge_" + UUID.randomUUID().toString().replace("-", "");
        Instant old = Instant.parse("2001-01-01T00:00:00Z");
        Instant cutoff = Instant.parse("2001-06-01T00:00:00Z");
        List<ApiLogEntry> rows = new ArrayList<>();
        for (int i = 0; i < 12_345 + 10; i++) {
            rows.add(new ApiLogEntry(0, "req_" + i, owner, "test", "key_apipurge", "GET", "/api/v1/payment_intents", 200, 1,
                    null, null, i < 12_345 ? old.plusSeconds(i) : cutoff.plusSeconds(i)));
            if (rows.size() == 500) {
                store.insert(rows).await().atMost(Duration.ofSeconds(30));
                rows.clear();
            }
        }
        store.insert(rows).await().atMost(Duration.ofSeconds(30));

        logs.purgeBefore(cutoff).await().atMost(Duration.ofSeconds(60));

        long left = pool.preparedQuery("SELECT count(*) FROM checkout.api_logs WHERE owner_id = $1").execute(Tuple.of(owner))
                .await().atMost(Duration.ofSeconds(30)).iterator().next().getLong(0);
        assertEquals(10, left, "the 12,345 rows before the cutoff are gone, in several statements; the 10 after it stay");
    }
}
