package ht.platform.support.tenancy;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * A service's words and tables for its tenants (applications, projects) and their secret keys. Every value is a
 * constant of the service, never input.
 *
 * @param owners      owner table ({@code checkout.applications}); columns {@code id, name, created_at}
 * @param ownerNoun   the spec's word for an owner ("Application", "Project"), in errors
 * @param ownerPrefix id prefix of a new owner ({@code app_}, {@code proj_})
 * @param ownerActive SQL over alias {@code o}: the owner may hold keys ({@code TRUE}, {@code o.revoked_at IS NULL})
 * @param keys        key table ({@code checkout.api_keys})
 * @param ownerColumn its owner column ({@code application_id})
 * @param grantNoun   the spec's word for what a key may do, also its column ({@code scopes}, {@code permissions})
 * @param keyPrefix   service prefix of a secret key ({@code co_}, {@code gw_}, {@code kyc_})
 * @param grants      everything a key may be granted; omitted = all but {@code KeyRequests.ASKED_FOR_ONLY}
 * @param time        how the service writes a timestamp in its views
 */
public record TenancyTerms(String owners, String ownerNoun, String ownerPrefix, String ownerActive,
                           String keys, String ownerColumn, String grantNoun, String keyPrefix, List<String> grants,
                           Function<Instant, String> time) {
}
