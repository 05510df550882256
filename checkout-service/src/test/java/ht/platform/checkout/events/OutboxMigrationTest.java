package ht.platform.checkout.events;

import ht.platform.support.testing.OutboxMigrationCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
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
            assertEquals(List.of("pay_we_off|app_m|test|push|https://b.example/hook|{payment_intent.succeeded}|sealed-b|pay_we_off|deleted|f|f|null",
                            "pay_we_on|app_m|test|push|https://a.example/hook|{payment_intent.succeeded}|sealed-a|pay_we_on|enabled|t|t|push"),
                    rows(c, "SELECT id, owner_id, mode, kind, url, events, secret, secret_bound_to, state, receives, open, delivery"
                            + " FROM checkout.destinations ORDER BY id"));
            try (Statement s = c.createStatement()) {
                // the release before rotates in its table; this one registers a pull endpoint and deletes one
                s.execute("UPDATE checkout.webhook_endpoints SET secret_sealed = 'sealed-a2', previous_secret_sealed = 'sealed-a',"
                        + " previous_secret_expires_at = '2026-01-06T00:00:00Z' WHERE id = 'pay_we_on'");
                s.execute("INSERT INTO checkout.destinations (id, owner_id, mode, kind, events, secret, secret_bound_to, created_at)"
                        + " VALUES ('pay_we_pull', 'app_m', 'live', 'pull', '{payment_intent.succeeded}', 'sealed-c', 'pay_we_pull', now())");
                s.execute("UPDATE checkout.destinations SET state = 'deleted' WHERE id = 'pay_we_on'");
            }
            assertEquals(List.of("pay_we_off|deleted|sealed-b|null", "pay_we_on|deleted|sealed-a2|sealed-a",
                            "pay_we_pull|enabled|sealed-c|null"),
                    rows(c, "SELECT id, state, secret, previous_secret FROM checkout.destinations ORDER BY id"));
            assertEquals(List.of("pay_we_off|deleted|push", "pay_we_on|deleted|push", "pay_we_pull|enabled|pull"),
                    rows(c, "SELECT id, status, delivery FROM checkout.webhook_endpoints ORDER BY id"));
            assertEquals(List.of("pay_we_off|null", "pay_we_on|null", "pay_we_pull|pull"),
                    rows(c, "SELECT id, delivery FROM checkout.outbox_destinations ORDER BY id"));
            assertEquals(List.of("0"), rows(c, "SELECT count(*) FROM pg_tables WHERE schemaname = 'checkout'"
                    + " AND tablename IN ('events', 'webhook_deliveries', 'webhook_attempts', 'delivery_recoveries')"));
        }
    }
}
