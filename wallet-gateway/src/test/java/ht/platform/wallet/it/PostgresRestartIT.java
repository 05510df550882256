package ht.platform.wallet.it;

import ht.platform.support.testing.PostgresRestartContract;
import ht.platform.support.testing.ServiceTerms;

import java.util.UUID;

/** Payments created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    PostgresRestartIT() {
        super(ServiceTerms.WALLET, "/api/v1/payments",
                () -> "{\"amount\":100,\"currency\":\"HTG\",\"reference\":\"order-" + UUID.randomUUID() + "\"}");
    }
}
