package ht.platform.checkout.it;

import ht.platform.checkout.web.MonCashReturnTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The MonCash return's rules (issue 22) against the packaged application, MonCash played by the stand-in. */
@QuarkusIntegrationTest
class MonCashReturnIT extends MonCashReturnTest {
}
