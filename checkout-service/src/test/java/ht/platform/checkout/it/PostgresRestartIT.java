package ht.platform.checkout.it;

import ht.platform.support.testing.PostgresRestartContract;
import ht.platform.support.testing.ServiceTerms;

import java.util.UUID;

/** Payment intents created while this test's own PostgreSQL restarts: 2xx or 503 with Retry-After, never 500. */
class PostgresRestartIT extends PostgresRestartContract {

    PostgresRestartIT() {
        super(ServiceTerms.CHECKOUT, "/api/v1/payment_intents",
                () -> "{\"amount\":\"100.00\",\"currency\":\"HTG\",\"external_reference\":\"order-" + UUID.randomUUID() + "\"}");
    }
}
