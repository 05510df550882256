package ht.platform.checkout.admin;

import ht.platform.support.testing.FoundationContract;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
public class FoundationTest extends FoundationContract {

    @Override
    protected String requestIdHeader() { return "Checkout-Request-Id"; }

    @Override
    protected String ownersPath() { return "/admin/v1/applications"; }

    @Override
    protected String ownerIdPrefix() { return "app_"; }

    @Override
    protected String grantsField() { return "scopes"; }

    @Override
    protected String someGrant() { return "payment_intents:read"; }

    @Override
    protected String keyPrefix() { return "co_"; }
}
