package ht.platform.checkout.it;

import ht.platform.support.testing.PostgresRestartContract;

import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/** Payment intents created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    @Override
    protected Supplier<Creation> creations(String base) throws Exception {
        String app = field(post(base + "/admin/v1/applications", ADMIN, "{\"name\":\"Restart\"}").body(), "id");
        String key = field(post(base + "/admin/v1/applications/" + app + "/keys", ADMIN, "{\"mode\":\"test\"}").body(), "key");
        return () -> new Creation("/api/v1/payment_intents",
                Map.of("Authorization", "Bearer " + key, "Idempotency-Key", UUID.randomUUID().toString()),
                "{\"amount\":\"100.00\",\"currency\":\"HTG\",\"external_reference\":\"order-" + UUID.randomUUID() + "\"}");
    }
}
