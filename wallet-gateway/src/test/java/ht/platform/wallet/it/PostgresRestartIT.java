package ht.platform.wallet.it;

import ht.platform.support.testing.PostgresRestartContract;

import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/** Payments created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    @Override
    protected Supplier<Creation> creations(String base) throws Exception {
        String project = field(post(base + "/admin/v1/projects", ADMIN, "{\"name\":\"Restart\"}").body(), "id");
        String key = field(post(base + "/admin/v1/projects/" + project + "/keys", ADMIN, "{\"mode\":\"test\"}").body(), "key");
        return () -> new Creation("/api/v1/payments",
                Map.of("Authorization", "Bearer " + key, "Idempotency-Key", UUID.randomUUID().toString()),
                "{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"order-" + UUID.randomUUID() + "\"}");
    }
}
