package ht.platform.checkout.events;

import ht.platform.support.testing.OutboxMigrationCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.List;

import static ht.platform.support.testing.OutboxMigrationCheck.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Checkout's rows written under the V6 schema, after the migration into the one outbox: nothing lost. */
class OutboxMigrationTest {

    @Test
    void everyEventDeliveryAttemptAndWindowKeepsItsIdAndHistory() throws Exception {
        String fill = new String(getClass().getResourceAsStream("/outbox-migration/v6-rows.sql").readAllBytes(), StandardCharsets.UTF_8);
        try (Connection c = OutboxMigrationCheck.filledThenMigrated("checkout", "6", fill)) {
            assertEquals(List.of("evt_1|app_m|test|pi_1|{\"id\":\"evt_1\",\"é\":\"ü\"}", "evt_2|app_m|test|pi_2|{\"id\":\"evt_2\"}"),
                    rows(c, "SELECT id, owner_id, mode, object_id, convert_from(body, 'UTF8') FROM checkout.outbox_events ORDER BY id"));
            assertEquals(List.of("whd_1|evt_1|pay_we_on|delivered|1|0|2026-01-03 00:00:02+00|null",
                            "whd_2|evt_2|pay_we_off|dead|2|2|null|2026-01-03 01:00:00+00"),
                    rows(c, "SELECT id, event_id, destination_id, status, attempts, cycle_failures, delivered_at, dead_at"
                            + " FROM checkout.outbox_deliveries ORDER BY seq"));
            assertEquals(List.of("whd_1|1|t|204", "whd_2|1|f|500", "whd_2|2|f|null"),
                    rows(c, "SELECT delivery_id, attempt_number, success, status_code FROM checkout.outbox_attempts"
                            + " ORDER BY delivery_id, attempt_number"));
            assertEquals(List.of("pay_we_on|0"), rows(c, "SELECT destination_id, resent FROM checkout.outbox_recoveries"));
            assertEquals(List.of("pay_we_off|f|f", "pay_we_on|t|t"),
                    rows(c, "SELECT id, receives, open FROM checkout.outbox_destinations ORDER BY id"));
            assertEquals(List.of("0"), rows(c, "SELECT count(*) FROM pg_tables WHERE schemaname = 'checkout'"
                    + " AND tablename IN ('events', 'webhook_deliveries', 'webhook_attempts', 'delivery_recoveries')"));
        }
    }
}
