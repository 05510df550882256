package ht.platform.kyc.web.dashboard;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.support.feed.FeedLags;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.service.ApplicationService;
import ht.platform.kyc.service.VerificationService;
import ht.platform.support.dashboard.AddressActions;
import ht.platform.support.dashboard.DashboardPage;
import ht.platform.support.dashboard.ServiceDashboard;
import ht.platform.support.dashboard.SignIns;
import ht.platform.support.dashboard.SignedIn;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.openapitools.jackson.nullable.JsonNullable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * kyc's merchant dashboard: verifications (status, reason codes, times and the external user id, nothing else
 * personal) and the settings (return URLs, the webhook address of the session's mode, rotation of its secret and the
 * recovery of a window, those two through the shared {@link AddressActions}). The webhook deliveries are the shared
 * pages ({@link KycDeliveryPages}) over {@link KycAddresses}. Every action is a service method.
 */
@Path("/dashboard")
@DashboardPage
@SignedIn
@Tag(name = "Dashboard")
public class KycDashboard extends ServiceDashboard {

    private static final int PAGE_SIZE = 25;

    /** A verification as the dashboard lists it. */
    public record VerificationRow(String id, String external_user_id, String status, List<String> reason_codes,
                                  String created_at, String completed_at, String expires_at) {
        static VerificationRow of(Verification v) {
            return new VerificationRow(v.id, v.externalUserId, v.status, List.of(v.reasonCodes), Timestamps.seconds(v.createdAt),
                    Timestamps.seconds(v.completedAt), Timestamps.seconds(v.expiresAt));
        }
    }

    /** The settings of the session's mode. */
    public record Settings(List<String> returnUrls, String webhookUrl, String overlapUntil) { }

    @Inject
    FeedLags feedLags;

    @Inject
    VerificationService verifications;

    @Inject
    AddressActions actions;

    @Inject
    KycAddresses webhookAddress;

    @Inject
    ApplicationService applications;

    public KycDashboard() {
        super("dashboard/kyc/", "/dashboard/verifications");
    }

    @GET
    @Path("/verifications")
    @Operation(summary = "Verifications, newest first, filtered by status (HTML)")
    public Uni<Response> verificationList(@QueryParam("status") String status, @QueryParam("starting_after") String after) {
        String wanted = blank(status);
        return pages.show(templates + "verifications", "verifications", () -> verifications
                .latest(merchant.require("verifications:read"), wanted, blank(after), PAGE_SIZE + 1).map(rows -> {
                    List<VerificationRow> page = rows.stream().limit(PAGE_SIZE).map(VerificationRow::of).toList();
                    Map<String, Object> data = new HashMap<>();
                    data.put("verifications", page);
                    data.put("statuses", Stream.concat(Verification.IN_PROGRESS.stream(), Verification.FINAL.stream()).sorted().toList());
                    data.put("status", wanted == null ? "" : wanted);
                    data.put("next", rows.size() > PAGE_SIZE ? "/dashboard/verifications?starting_after=" + page.get(PAGE_SIZE - 1).id()
                            + (wanted == null ? "" : "&status=" + wanted) : "");
                    return data;
                }));
    }

    @GET
    @Path("/settings")
    @Operation(summary = "Return URLs and the webhook address of this mode (HTML)")
    public Uni<Response> settings(@QueryParam("n") String resent) {
        return pages.show(templates + "settings", "settings", () -> applications.get(merchant.require(SignIns.OPERATOR).ownerId())
                .chain(app -> {
                    Settings s = settingsOf(app);
                    String address = KycDeliveryPolicy.destinationOf(app.id, merchant.session().mode());
                    return feedLags.of(s.webhookUrl() == null ? List.of(address) : List.of())
                            .map(lags -> Map.of("s", s, "address", address, "lags", lags,
                                    "resent", resent == null ? "" : resent));
                }));
    }

    @POST
    @Path("/settings")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Save the return URLs (one a line) and this mode's webhook URL (empty removes it)")
    public Uni<Response> save(@FormParam("return_urls") String returnUrls, @FormParam("webhook_url") String webhookUrl) {
        List<String> urls = returnUrls == null ? List.of() : returnUrls.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String hook = webhookUrl == null ? "" : webhookUrl.strip();
        String mode = merchant.session().mode();
        java.util.function.Supplier<Uni<ApplicationService.AppWithSecrets>> work = () -> applications.update(
                merchant.require(SignIns.OPERATOR).ownerId(), mode, JsonNullable.undefined(), JsonNullable.of(urls), JsonNullable.of(hook));
        // a new URL draws a new push secret, shown once as a rotation's is
        return applications.get(merchant.session().ownerId()).chain(app -> hook.isEmpty() || hook.equals(app.webhookUrl(mode))
                ? pages.act("settings_save", mode, work, shown -> "/dashboard/settings?done=saved")
                : actions.showSecret("settings_save", mode, () -> work.get().map(shown -> webhookAddress.shown(shown, mode))));
    }

    @POST
    @Path("/settings/rotate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Rotate this mode's webhook secret; the page shows the new one once and the end of the overlap")
    public Uni<Response> rotate() {
        return actions.rotate(merchant.session().mode());
    }

    @POST
    @Path("/settings/recover")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(summary = "Recover a window: resend the failed and dead deliveries of this mode created between two times")
    public Uni<Response> recover(@FormParam("since") String since, @FormParam("until") String until) {
        return actions.recover(merchant.session().mode(), since, until);
    }

    private Settings settingsOf(Application app) {
        String mode = merchant.session().mode();
        return new Settings(List.of(app.returnUrls), app.webhookUrl(mode), webhookAddress.overlapUntil(app, mode));
    }
}
