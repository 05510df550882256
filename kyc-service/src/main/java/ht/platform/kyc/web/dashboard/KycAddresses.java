package ht.platform.kyc.web.dashboard;

import ht.platform.kyc.events.KycDeliveryPolicy;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.model.DeliveryView;
import ht.platform.kyc.service.ApplicationService;
import ht.platform.kyc.service.ApplicationService.AppWithSecrets;
import ht.platform.kyc.service.WebhookDeliveries;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.support.dashboard.SignIns;
import ht.platform.support.dashboard.WebhookAddresses;
import ht.platform.support.dashboard.WebhookWords;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * kyc's webhook address for the shared dashboard pages: one per application and mode, named by the mode, set in the
 * settings (only an operator's session changes it); its deliveries, their Resend and the recovery of a window.
 */
@ApplicationScoped
public class KycAddresses implements WebhookAddresses {

    @Produces
    static WebhookWords words(KycDeliveryPolicy policy) {
        return new WebhookWords("/dashboard/settings", "dashboard/kyc/", null, "webhook", "register", "delete",
                "verifications:read", SignIns.OPERATOR, 25, List.of(), List.of(), policy.words().all());
    }

    @Inject
    ApplicationService applications;

    @Inject
    WebhookDeliveries deliveries;

    @Inject
    Clock clock;

    @Override
    public Uni<Shown> rotate(ApiPrincipal caller, String mode) {
        return applications.rotateSecret(caller.ownerId(), own(caller, mode)).map(app -> shown(app, mode));
    }

    @Override
    public Uni<Recovery> recover(ApiPrincipal caller, String mode, Instant since, Instant until) {
        own(caller, mode);
        return deliveries.recover(caller, since, until).map(r -> new Recovery(r.resent(), r.replayed()));
    }

    @Override
    public Uni<DeliveryPage> deliveries(ApiPrincipal caller, DeliveryFilter filter, String startingAfter, int limit) {
        return deliveries.list(caller, filter.status(), startingAfter, limit)
                .map(page -> new DeliveryPage(page.data().stream().map(KycAddresses::row).toList(), page.next()));
    }

    @Override
    public Uni<DeliveryRow> delivery(ApiPrincipal caller, String id) {
        return deliveries.get(caller, id).map(KycAddresses::row);
    }

    @Override
    public Uni<Void> resend(ApiPrincipal caller, String id) {
        return deliveries.resend(caller, id).replaceWithVoid();
    }

    /** The secret of the mode's address an answer shows once, with the end of the previous one's overlap. */
    Shown shown(AppWithSecrets shown, String mode) {
        return new Shown(mode, "test".equals(mode) ? shown.testWebhookSecret() : shown.webhookSecret(),
                overlapUntil(shown.application(), mode));
    }

    /** Until when the previous secret of the mode's address still signs; null when it no longer does. */
    String overlapUntil(Application app, String mode) {
        Instant overlap = app.address(mode) == null ? null : app.address(mode).previousSecretExpiresAt();
        return overlap == null || !overlap.isAfter(clock.instant()) ? null : Timestamps.seconds(overlap);
    }

    private static String own(ApiPrincipal caller, String mode) {
        if (!caller.mode().equals(mode)) {
            throw ApiException.notFound("Webhook address " + mode);
        }
        return mode;
    }

    private static DeliveryRow row(DeliveryView d) {
        return new DeliveryRow(d.id(), d.event_id(), d.event_type(), null, d.status(), d.attempts(), d.last_status(),
                d.next_attempt_at(), d.created_at(), d.delivered_at(), d.resendable(), DeliveryRow.attempts(d.attempt_list(), null));
    }
}
