package ht.platform.wallet.admin;

import ht.platform.support.admin.OperatorApi;
import ht.platform.support.tenancy.OwnerAdminResource;
import ht.platform.support.tenancy.OwnerKeysResource;
import jakarta.ws.rs.Path;

/** Operator API: merchant projects, their secret keys and dashboard links (Bearer ADMIN_TOKEN). */
@OperatorApi
@Path("/admin/v1/projects")
public class ProjectAdminResource extends OwnerAdminResource<OwnerKeysResource.Permissions> {
}
