package ht.platform.checkout.admin;

import ht.platform.support.admin.OperatorApi;
import ht.platform.support.tenancy.OwnerAdminResource;
import ht.platform.support.tenancy.OwnerKeysResource;
import jakarta.ws.rs.Path;

/** Operator API: client applications, their secret keys and dashboard links (Bearer ADMIN_TOKEN). */
@OperatorApi
@Path("/admin/v1/applications")
public class ApplicationAdminResource extends OwnerAdminResource<OwnerKeysResource.Scopes> {
}
