package ht.platform.checkout.it;

import ht.platform.checkout.web.dashboard.DashboardEdgeTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The dashboard's edge checks (issue 22) against the packaged application. */
@QuarkusIntegrationTest
class DashboardEdgeIT extends DashboardEdgeTest {
}
