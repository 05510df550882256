package ht.platform.kyc.events;

import ht.platform.support.testing.OutboxMigrationCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
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
        }
    }
}
