package ht.platform.wallet.admin;

import ht.platform.support.testing.ServiceTerms;
import ht.platform.support.testing.TenancyUpgradeContract;

/** Databases of the takeover builds and of the released migrations meet today's and the release before's Flyway. */
class TenancyUpgradeTest extends TenancyUpgradeContract {

    TenancyUpgradeTest() {
        super(ServiceTerms.WALLET,
                "INSERT INTO wallet.projects (id, name, created_at)"
                + " VALUES ('own_1', 'Shop', '2026-01-02T03:04:05Z')");
    }
}
