package ht.platform.wallet.config;

import ht.platform.support.tenancy.TenancyTerms;
import ht.platform.support.time.Timestamps;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Produces;

import java.util.List;

/** The gateway's tenants: merchant projects, their {@code gw_…} keys and the permissions a key may hold. */
public class Tenants {

    public static final List<String> PERMISSIONS = List.of("payments:read", "payments:write", "withdrawals:read",
            "withdrawals:write", "balance:read", "webhooks:read", "webhooks:write", "dashboard:write");

    @Produces
    @Singleton
    TenancyTerms terms() {
        return new TenancyTerms("wallet.projects", "Project", "proj_", "TRUE",
                "wallet.api_keys", "project_id", "permissions", "gw_", PERMISSIONS, Timestamps::millis);
    }
}
