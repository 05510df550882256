package ht.platform.wallet.admin;

import ht.platform.support.testing.FoundationContract;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
public class FoundationTest extends FoundationContract {

    @Override
    protected String requestIdHeader() { return "X-Gateway-Request-Id"; }

    @Override
    protected String ownersPath() { return "/admin/v1/projects"; }

    @Override
    protected String ownerIdPrefix() { return "proj_"; }

    @Override
    protected String grantsField() { return "permissions"; }

    @Override
    protected String someGrant() { return "balance:read"; }

    @Override
    protected String keyPrefix() { return "gw_"; }
}
