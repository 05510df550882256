package ht.platform.wallet.admin;

import ht.platform.support.testing.TenancyUpgradeContract;

/** A database of the release before the shared tenancy migration, taken over by today's migrations. */
class TenancyUpgradeTest extends TenancyUpgradeContract {

    @Override
    protected String ownerRow() {
        return "INSERT INTO wallet.projects (id, name, created_at) VALUES ('own_1', 'Shop', '2026-01-02T03:04:05Z')";
    }
}
