package ht.platform.kyc.web.dashboard;

import ht.platform.support.testing.DashboardEdgeContract;
import io.quarkus.test.junit.QuarkusTest;

import java.util.List;
import java.util.Map;

/**
 * The dashboard's edge (issue 22) in kyc: the settings form (this mode's webhook address) is the takeover a session
 * must not do; only the operator API changes it, so only an operator's link opens it.
 */
@QuarkusTest
public class DashboardEdgeTest extends DashboardEdgeContract {

    @Override
    protected String ownersPath() { return "/admin/v1/applications"; }

    @Override
    protected String ownerBody(String name) {
        return "{\"name\":\"" + name + "\",\"return_urls\":[\"https://shop.example/done\"]}";
    }

    @Override
    protected String grantsField() { return "scopes"; }

    @Override
    protected String takeoverPath() { return "/dashboard/settings"; }

    @Override
    protected Map<String, String> takeoverForm() { return Map.of("webhook_url", ATTACKER, "return_urls", ""); }

    @Override
    protected String webhooksPage() { return "/dashboard/settings"; }

    @Override
    protected List<String> guardedNavIds() {
        return List.of("nav-verifications", "nav-deliveries", "nav-settings");
    }

    @Override
    protected String requestIdHeader() { return "Kyc-Request-Id"; }
}
