package ht.platform.kyc.admin;

import ht.platform.support.testing.TenancyUpgradeContract;

/** A database of the release before the shared tenancy migration, taken over by today's migrations. */
class TenancyUpgradeTest extends TenancyUpgradeContract {

    @Override
    protected String ownerRow() {
        return "INSERT INTO kyc.applications (id, name, return_urls, webhook_url, webhook_secret_sealed, created_at)"
                + " VALUES ('own_1', 'Shop', '{https://shop.example/back}', 'https://shop.example/hooks', 'sealed',"
                + " '2026-01-02T03:04:05Z')";
    }
}
