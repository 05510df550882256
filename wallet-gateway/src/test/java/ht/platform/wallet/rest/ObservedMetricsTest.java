package ht.platform.wallet.rest;

import ht.platform.support.testing.ObservedMetricsContract;
import ht.platform.support.testing.ServiceTerms;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class ObservedMetricsTest extends ObservedMetricsContract {

    ObservedMetricsTest() {
        super(ServiceTerms.WALLET);
    }
}
