package ht.platform.checkout.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import io.quarkus.test.junit.QuarkusTest;

import java.util.List;
import java.util.Map;

/** The dashboard's edge (issue 22) in checkout: the endpoint create form is the takeover a session must not do. */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    @Override
    protected String ownersPath() { return "/admin/v1/applications"; }

    @Override
    protected String grantsField() { return "scopes"; }

    @Override
    protected String takeoverPath() { return "/dashboard/endpoints"; }

    @Override
    protected Map<String, String> takeoverForm() { return Map.of("url", ATTACKER); }

    @Override
    protected String webhooksPage() { return "/dashboard/endpoints"; }

    @Override
    protected List<String> guardedNavIds() {
        return List.of("nav-api-logs", "nav-events", "nav-endpoints", "nav-payment-intents", "nav-refunds");
    }

    @Override
    protected String requestIdHeader() { return "Checkout-Request-Id"; }
}
