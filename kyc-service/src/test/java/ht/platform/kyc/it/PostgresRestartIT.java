package ht.platform.kyc.it;

import ht.platform.support.testing.PostgresRestartContract;

import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/** Verifications created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("kyc.rate-limit.per-second", "100000", "kyc.rate-limit.burst", "100000");
    }

    @Override
    protected Supplier<Creation> creations(String base) throws Exception {
        String app = field(post(base + "/admin/v1/applications", ADMIN,
                "{\"name\":\"Restart\",\"return_urls\":[\"https://shop.example/done\"]}").body(), "id");
        String key = field(post(base + "/admin/v1/applications/" + app + "/keys", ADMIN, "{\"mode\":\"test\"}").body(), "key");
        return () -> new Creation("/api/v1/verifications",
                Map.of("Authorization", "Bearer " + key, "Idempotency-Key", UUID.randomUUID().toString()),
                "{\"external_user_id\":\"user-" + UUID.randomUUID() + "\"}");
    }
}
