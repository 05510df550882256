package ht.platform.kyc.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import ht.platform.support.testing.ServiceTerms;
import io.quarkus.test.junit.QuarkusTest;

import java.util.List;
import java.util.Map;

/**
 * The dashboard's edge (issue 22) in kyc: the settings form (this mode's webhook address) is the takeover a session
 * must not do; only the operator API changes it, so only an operator's link opens it.
 */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    public DashboardEdgeTest() {
        super(ServiceTerms.KYC, new Pages("/dashboard/settings", Map.of("webhook_url", ATTACKER, "return_urls", ""),
                "/dashboard/settings", List.of("nav-verifications", "nav-deliveries", "nav-settings")));
    }
}
