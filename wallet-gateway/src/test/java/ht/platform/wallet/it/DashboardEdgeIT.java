package ht.platform.wallet.it;

import ht.platform.wallet.web.dashboard.DashboardEdgeTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The dashboard's edge checks (issue 22) against the packaged application. */
@QuarkusIntegrationTest
class DashboardEdgeIT extends DashboardEdgeTest {
}
