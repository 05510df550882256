package ht.platform.kyc.admin;

import ht.platform.support.testing.ServiceTerms;
import ht.platform.support.testing.TenancyUpgradeContract;

/** Databases of the takeover builds and of the released migrations meet today's and the release before's Flyway. */
class TenancyUpgradeTest extends TenancyUpgradeContract {

    TenancyUpgradeTest() {
        super(ServiceTerms.KYC,
                "INSERT INTO kyc.applications (id, name, return_urls, webhook_url, webhook_secret_sealed, created_at)"
                + " VALUES ('own_1', 'Shop', '{https://shop.example/back}', 'https://shop.example/hooks', 'sealed',"
                + " '2026-01-02T03:04:05Z')");
    }
}
