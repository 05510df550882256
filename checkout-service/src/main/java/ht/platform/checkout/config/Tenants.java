package ht.platform.checkout.config;

import ht.platform.support.tenancy.TenancyTerms;
import ht.platform.support.time.Timestamps;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Produces;

import java.util.List;

/** Checkout's tenants: client applications, their {@code co_…} keys and the scopes a key may hold. */
public class Tenants {

    public static final List<String> SCOPES = List.of("payment_intents:create", "payment_intents:read",
            "payment_intents:write", "refunds:create", "refunds:read", "customers:read", "payment_links:create",
            "payment_links:read", "webhooks:manage", "dashboard:write");

    @Produces
    @Singleton
    TenancyTerms terms() {
        return new TenancyTerms("checkout.applications", "Application", "app_", "TRUE",
                "checkout.api_keys", "application_id", "scopes", "co_", SCOPES, Timestamps::seconds);
    }
}
