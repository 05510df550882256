package ht.platform.kyc.web.dashboard;

import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.DeliveryPages;
import ht.platform.support.dashboard.SignedIn;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** kyc's delivery pages: the shared ones, for the session's mode. */
@Path("/dashboard/deliveries")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class KycDeliveryPages extends DeliveryPages {
}
