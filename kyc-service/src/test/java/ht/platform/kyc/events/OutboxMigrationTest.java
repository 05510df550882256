package ht.platform.kyc.events;

import ht.platform.support.testing.OutboxMigrationCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static ht.platform.support.testing.OutboxMigrationCheck.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The kyc rows written under the V3 schema, after the migration into the one outbox: nothing lost, and each
 * delivery goes to the destination of its event's mode.
 */
class OutboxMigrationTest {

    @Test
    void everyEventDeliveryAttemptAndWindowKeepsItsIdAndHistoryAndItsMode() throws Exception {
        String fill = new String(getClass().getResourceAsStream("/outbox-migration/v3-rows.sql").readAllBytes(), StandardCharsets.UTF_8);
        try (Connection c = OutboxMigrationCheck.filledThenMigrated("kyc", "3", fill)) {
            assertEquals(List.of("evt_l|app_m|live|ver_1|{\"id\":\"evt_l\"}", "evt_t|app_m|test|ver_2|{\"id\":\"evt_t\"}"),
                    rows(c, "SELECT id, owner_id, mode, object_id, convert_from(body, 'UTF8') FROM kyc.outbox_events ORDER BY id"));
            assertEquals(List.of("whd_l|app_m|delivered|2|0|200", "whd_t|app_m/test|dead|2|1|500"),
                    rows(c, "SELECT id, destination_id, status, attempts, cycle_failures, last_status_code"
                            + " FROM kyc.outbox_deliveries ORDER BY seq"));
            assertEquals(List.of("whd_l|1|f|https://live.example/hook", "whd_l|2|t|https://live.example/hook",
                            "whd_t|1|f|https://test.example/hook", "whd_t|1|f|https://test.example/hook"),
                    rows(c, "SELECT delivery_id, attempt_number, success, url FROM kyc.outbox_attempts ORDER BY id"));
            assertEquals(List.of("app_m|0", "app_m/test|1"),
                    rows(c, "SELECT destination_id, resent FROM kyc.outbox_recoveries ORDER BY destination_id"));
            assertEquals(List.of("app_m|live|https://live.example/hook|app_m", "app_m/test|test|https://test.example/hook|app_m/test"),
                    rows(c, "SELECT id, mode, url, secret_bound_to FROM kyc.outbox_destinations ORDER BY id"));
            assertEquals(List.of("app_m|app_m|live|push|https://live.example/hook|null|sealed-live|null|app_m|t|push",
                            "app_m/test|app_m|test|push|https://test.example/hook|null|sealed-test|null|app_m/test|t|push"),
                    rows(c, "SELECT id, owner_id, mode, kind, url, events, secret, standby_secret, secret_bound_to, receives,"
                            + " delivery FROM kyc.destinations ORDER BY id"));
            try (Statement s = c.createStatement()) {
                // the release before removes the live URL (the feed gets its own secret); this one moves the test URL
                s.execute("UPDATE kyc.applications SET webhook_url = NULL, feed_secret_sealed = 'sealed-feed' WHERE id = 'app_m'");
                s.execute("UPDATE kyc.destinations SET url = 'https://moved.example/hook', secret = 'sealed-test2',"
                        + " previous_secret = 'sealed-test', previous_secret_expires_at = '2026-01-06T00:00:00Z' WHERE id = 'app_m/test'");
            }
            List<String> both = List.of("app_m|pull|null|sealed-feed|null|pull",
                    "app_m/test|push|https://moved.example/hook|sealed-test2|sealed-test|push");
            assertEquals(both, rows(c, "SELECT id, kind, url, secret, previous_secret, delivery FROM kyc.destinations ORDER BY id"));
            assertEquals(both, rows(c, "SELECT id, CASE WHEN receives THEN 'push' ELSE 'pull' END, url, secret, previous_secret,"
                    + " delivery FROM kyc.outbox_destinations ORDER BY id"));
            assertEquals(List.of("sealed-live|sealed-live|https://moved.example/hook|sealed-test2|sealed-test"),
                    rows(c, "SELECT webhook_secret_sealed, (SELECT standby_secret FROM kyc.destinations WHERE id = 'app_m'),"
                            + " test_webhook_url, test_webhook_secret_sealed, test_previous_secret_sealed FROM kyc.applications"));
        }
    }
}
