package ht.platform.checkout.it;

import ht.platform.checkout.web.dashboard.ApiLogMaskingTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** Credentials masked in the API logs (issue 22), against the packaged application. */
@QuarkusIntegrationTest
class ApiLogMaskingIT extends ApiLogMaskingTest {
}
