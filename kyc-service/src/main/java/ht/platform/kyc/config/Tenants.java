package ht.platform.kyc.config;

import ht.platform.support.tenancy.TenancyTerms;
import ht.platform.support.time.Timestamps;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Produces;

import java.util.List;

/**
 * kyc's tenants: client applications (a revoked application's keys stop working), their {@code kyc_…} keys and the
 * scopes a key may hold.
 */
public class Tenants {

    public static final List<String> SCOPES = List.of("verifications:write", "verifications:read", "subjects:read", "dashboard:write");

    @Produces
    @Singleton
    TenancyTerms terms() {
        return new TenancyTerms("kyc.applications", "Application", "app_", "o.revoked_at IS NULL",
                "kyc.api_keys", "application_id", "scopes", "kyc_", SCOPES, Timestamps::seconds);
    }
}
