package ht.platform.wallet.web.dashboard;

import ht.platform.support.dashboard.AddressPages;
import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.SignedIn;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The gateway's webhook address pages: the shared ones, at the gateway's path. */
@Path("/dashboard/webhooks")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class WalletWebhookPages extends AddressPages {
}
