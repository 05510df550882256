package ht.platform.kyc.it;

import ht.platform.support.testing.PostgresRestartContract;
import ht.platform.support.testing.ServiceTerms;

import java.util.Map;
import java.util.UUID;

/** Verifications created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    PostgresRestartIT() {
        super(ServiceTerms.KYC, "/api/v1/verifications",
                () -> "{\"external_user_id\":\"user-" + UUID.randomUUID() + "\"}");
    }

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("kyc.rate-limit.per-second", "100000", "kyc.rate-limit.burst", "100000");
    }
}
