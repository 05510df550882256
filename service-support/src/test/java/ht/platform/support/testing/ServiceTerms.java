package ht.platform.support.testing;

/**
 * A service's own words for what every service has: its module, its request id header, its owners (applications or projects), the
 * field of what a key may do, and its key and owner id prefixes.
 *
 * @param module      the service's Maven module, also its name in the alert rules and dashboards ({@code kyc-service})
 * @param owner       the word for an owner, as the operator API and the tables spell it ({@code application})
 * @param grantsField what a key may do, as the API and the tables spell it ({@code scopes}, {@code permissions})
 * @param someGrant   one real scope or permission of the service
 * @param ownerFields the owner creation body's required fields beyond the name, as JSON members with a leading comma
 */
public record ServiceTerms(String module, String requestIdHeader, String owner, String ownerIdPrefix, String grantsField,
                           String someGrant, String keyPrefix, String ownerFields) {

    public static final ServiceTerms CHECKOUT = new ServiceTerms("checkout-service", "Checkout-Request-Id", "application", "app_",
            "scopes", "payment_intents:read", "co_", "");
    public static final ServiceTerms KYC = new ServiceTerms("kyc-service", "Kyc-Request-Id", "application", "app_",
            "scopes", "subjects:read", "kyc_", ",\"return_urls\":[\"https://shop.example/done\"]");
    public static final ServiceTerms WALLET = new ServiceTerms("wallet-gateway", "X-Gateway-Request-Id", "project", "proj_",
            "permissions", "balance:read", "gw_", "");

    /** The operator API's owners ({@code /admin/v1/applications}). */
    public String ownersPath() {
        return "/admin/v1/" + owner + "s";
    }

    /** The creation body of an owner with the given name (a JSON value, possibly malformed on purpose). */
    public String ownerBody(String nameJson) {
        return "{\"name\":" + nameJson + ownerFields + "}";
    }
}
