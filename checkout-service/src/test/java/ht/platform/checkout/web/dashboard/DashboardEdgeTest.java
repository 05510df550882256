package ht.platform.checkout.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import ht.platform.support.testing.ServiceTerms;
import io.quarkus.test.junit.QuarkusTest;

import java.util.List;
import java.util.Map;

/** The dashboard's edge (issue 22) in checkout: the endpoint create form is the takeover a session must not do. */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    public DashboardEdgeTest() {
        super(ServiceTerms.CHECKOUT, new Pages("/dashboard/endpoints", Map.of("url", ATTACKER), "/dashboard/endpoints",
                List.of("nav-api-logs", "nav-events", "nav-endpoints", "nav-payment-intents", "nav-refunds")));
    }
}
