package ht.platform.wallet.events;

import ht.platform.support.testing.OutboxMigrationCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static ht.platform.support.testing.OutboxMigrationCheck.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The gateway's rows written under the V5 schema, after the migrations into the one outbox and its table of
 * destinations: nothing lost, and the release before (which writes webhook_endpoints and pauses through the view
 * outbox_destinations) and this one see each other's writes.
 */
class OutboxMigrationTest {

    @Test
    void everyEventDeliveryAttemptAndWindowKeepsItsIdOrderAndHistory() throws Exception {
        String fill = new String(getClass().getResourceAsStream("/outbox-migration/v5-rows.sql").readAllBytes(), StandardCharsets.UTF_8);
        try (Connection c = OutboxMigrationCheck.filledThenMigrated("wallet", "5", fill)) {
            assertEquals(List.of("evt_1|prj_m|live|payment.succeeded|pay_1|{\"id\":\"evt_1\"}",
                            "evt_2|prj_m|live|payment.failed|pay_2|{\"id\":\"evt_2\"}",
                            "evt_3|prj_m|test|payment.succeeded|pay_3|{\"id\":\"evt_3\"}"),
                    rows(c, "SELECT id, owner_id, mode, type, object_id, convert_from(body, 'UTF8') FROM wallet.outbox_events ORDER BY id"));
            assertEquals(List.of("whd_1|7|evt_1|we_active|delivered|2|1|null|200",
                            "whd_2|8|evt_2|we_active|dead|3|3|null|null",
                            "whd_3|9|evt_3|we_paused|pending|1|1|2026-01-03 00:10:00+00|410"),
                    rows(c, "SELECT id, seq, event_id, destination_id, status, attempts, cycle_failures, next_attempt_at,"
                            + " last_status_code FROM wallet.outbox_deliveries ORDER BY seq"));
            assertEquals("2026-01-04 00:00:00+00", rows(c, "SELECT dead_at FROM wallet.outbox_deliveries WHERE id = 'whd_2'").get(0));
            assertEquals(List.of("whd_1|1|f|500|oops", "whd_1|2|t|200|ok", "whd_2|1|f|502|null",
                            "whd_2|2|f|503|null", "whd_2|3|f|null|null", "whd_3|1|f|410|gone"),
                    rows(c, "SELECT delivery_id, attempt_number, success, status_code, response_excerpt FROM wallet.outbox_attempts"
                            + " ORDER BY delivery_id, attempt_number"));
            assertEquals(List.of("we_active|1"), rows(c, "SELECT destination_id, resent FROM wallet.outbox_recoveries"));
            assertEquals(List.of("we_active|active|t|0", "we_paused|paused|f|20"),
                    rows(c, "SELECT e.id, e.status, t.open, t.consecutive_failures FROM wallet.webhook_endpoints e"
                            + " JOIN wallet.outbox_destinations t ON t.id = e.id ORDER BY e.id"));
            assertEquals(List.of("we_active|prj_m|live|push|https://b.example/hook|{payment.succeeded,payment.failed}|sealed-b|we_active|enabled|t|t|0|null",
                            "we_paused|prj_m|test|push|https://a.example/hook|{payment.succeeded}|sealed-a|we_paused|enabled|t|f|20|2026-01-02 00:00:00+00"),
                    rows(c, "SELECT id, owner_id, mode, kind, url, events, secret, secret_bound_to, state, receives, open,"
                            + " consecutive_failures, paused_at FROM wallet.destinations ORDER BY id"));
            try (Statement s = c.createStatement()) {
                // the release before: a pause through its view, a rotation and a removal in its table
                s.execute("UPDATE wallet.outbox_destinations SET consecutive_failures = 20, paused_at = '2026-01-05T00:00:00Z'"
                        + " WHERE id = 'we_active'");
                s.execute("UPDATE wallet.webhook_endpoints SET secret_sealed = 'sealed-b2', previous_secret_sealed = 'sealed-b'"
                        + " WHERE id = 'we_active'");
                // this release: a reactivation and a new address in the table of destinations
                s.execute("UPDATE wallet.destinations SET paused_at = NULL, consecutive_failures = 0 WHERE id = 'we_paused'");
                s.execute("INSERT INTO wallet.destinations (id, owner_id, mode, kind, events, secret, secret_bound_to, created_at)"
                        + " VALUES ('we_pull', 'prj_m', 'test', 'pull', '{payment.succeeded}', 'sealed-c', 'we_pull', now())");
            }
            assertEquals(List.of("we_active|f|20|sealed-b2|sealed-b", "we_paused|t|0|sealed-a|null", "we_pull|t|0|sealed-c|null"),
                    rows(c, "SELECT id, open, consecutive_failures, secret, previous_secret FROM wallet.destinations ORDER BY id"));
            assertEquals(List.of("we_active|paused|sealed-b2", "we_paused|active|sealed-a", "we_pull|active|sealed-c"),
                    rows(c, "SELECT id, status, secret_sealed FROM wallet.webhook_endpoints ORDER BY id"));
            assertEquals(List.of("we_active|f|20|sealed-b2", "we_paused|t|0|sealed-a", "we_pull|t|0|sealed-c"),
                    rows(c, "SELECT id, open, consecutive_failures, secret FROM wallet.outbox_destinations ORDER BY id"));
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM wallet.webhook_endpoints WHERE id = 'we_active'");
                s.execute("UPDATE wallet.destinations SET state = 'deleted' WHERE id = 'we_pull'");
            }
            assertEquals(List.of("we_active|deleted|f|null", "we_paused|enabled|t|push", "we_pull|deleted|f|null"),
                    rows(c, "SELECT id, state, receives, delivery FROM wallet.destinations ORDER BY id"));
            assertEquals(List.of("we_paused"), rows(c, "SELECT id FROM wallet.webhook_endpoints ORDER BY id"));
            assertEquals(List.of("0"), rows(c, "SELECT count(*) FROM pg_tables WHERE schemaname = 'wallet'"
                    + " AND tablename IN ('events', 'webhook_deliveries', 'webhook_attempts', 'delivery_recoveries')"));
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO wallet.outbox_deliveries (id, event_id, destination_id, status, created_at, updated_at)"
                        + " VALUES ('whd_new', 'evt_3', 'we_active', 'pending', now(), now())");
            }
            assertEquals(List.of("10"), rows(c, "SELECT seq FROM wallet.outbox_deliveries WHERE id = 'whd_new'"),
                    "a new delivery comes after the moved ones");
        }
    }
}
