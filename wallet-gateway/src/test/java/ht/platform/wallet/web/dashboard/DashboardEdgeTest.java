package ht.platform.wallet.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import io.quarkus.test.junit.QuarkusTest;

import java.util.List;
import java.util.Map;

/** The dashboard's edge (issue 22) in the gateway: the webhook register form is the takeover a session must not do. */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    @Override
    protected String ownersPath() { return "/admin/v1/projects"; }

    @Override
    protected String grantsField() { return "permissions"; }

    @Override
    protected String takeoverPath() { return "/dashboard/webhooks"; }

    @Override
    protected Map<String, String> takeoverForm() { return Map.of("url", ATTACKER, "events", "payment.succeeded"); }

    @Override
    protected String webhooksPage() { return "/dashboard/webhooks"; }

    @Override
    protected List<String> guardedNavIds() {
        return List.of("nav-webhooks", "nav-deliveries", "nav-payments", "nav-withdrawals", "nav-balance");
    }

    @Override
    protected String requestIdHeader() { return "X-Gateway-Request-Id"; }
}
