package ht.platform.checkout.web.dashboard;

import ht.platform.support.dashboard.AddressPages;
import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.SignedIn;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Checkout's webhook endpoint pages: the shared address pages, at checkout's path. */
@Path("/dashboard/endpoints")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class CheckoutEndpointPages extends AddressPages {
}
