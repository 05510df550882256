package ht.platform.wallet.web.dashboard;

import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.DeliveryPages;
import ht.platform.support.dashboard.SignedIn;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The gateway's delivery pages: the shared ones. */
@Path("/dashboard/deliveries")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class WalletDeliveryPages extends DeliveryPages {
}
