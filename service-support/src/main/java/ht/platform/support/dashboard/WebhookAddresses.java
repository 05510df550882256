package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;

/**
 * The webhook addresses of one service and their deliveries, as its dashboard acts on them: every method is the
 * caller's (owner and mode), so another owner's or mode's address or delivery is 404 from the method itself. An
 * operation a service does not have keeps its default, a 404 for the pages that would offer it.
 */
public interface WebhookAddresses {

    /** An address as the pages show it, in the service's own status words and time format. */
    @TemplateData
    record AddressRow(String id, String url, String status, List<String> events, String delivery,
                      int consecutive_failures, String paused_at, String created_at) { }

    /** A secret shown once (a registration or a rotation) and, after a rotation, the end of the old one's overlap. */
    record Shown(String addressId, String secret, String overlapUntil) { }

    /** A recovered window: {@code resent} deliveries queued again; {@code replayed} when the window was asked before. */
    record Recovery(int resent, boolean replayed) { }

    /** What a list of deliveries is narrowed to; null: any. */
    @TemplateData
    record DeliveryFilter(String address, String status, String eventType) { }

    /** A page of deliveries, newest first; {@code next} is the cursor of the following page, null after the last. */
    record DeliveryPage(List<DeliveryRow> rows, String next) { }

    /** The caller's addresses; none for a service whose pages list none. */
    default Uni<List<AddressRow>> list(ApiPrincipal caller) {
        return Uni.createFrom().item(List.of());
    }

    default Uni<AddressRow> get(ApiPrincipal caller, String id) {
        return absent(id);
    }

    default Uni<Shown> register(ApiPrincipal caller, String url, List<String> events, String delivery) {
        return absent(null);
    }

    default Uni<Void> delete(ApiPrincipal caller, String id) {
        return absent(id);
    }

    default Uni<Void> reactivate(ApiPrincipal caller, String id) {
        return absent(id);
    }

    default Uni<Shown> rotate(ApiPrincipal caller, String id) {
        return absent(id);
    }

    /** Sends a test event to this address only. */
    default Uni<Void> test(ApiPrincipal caller, String id) {
        return absent(id);
    }

    default Uni<Recovery> recover(ApiPrincipal caller, String id, Instant since, Instant until) {
        return absent(id);
    }

    default Uni<DeliveryPage> deliveries(ApiPrincipal caller, DeliveryFilter filter, String startingAfter, int limit) {
        return Uni.createFrom().item(new DeliveryPage(List.of(), null));
    }

    default Uni<DeliveryRow> delivery(ApiPrincipal caller, String id) {
        return absent(id);
    }

    /** Queues a delivery again with the same event. */
    default Uni<Void> resend(ApiPrincipal caller, String id) {
        return absent(id);
    }

    private static <T> Uni<T> absent(String id) {
        return Uni.createFrom().failure(ApiException.notFound(id == null ? "This action" : "Webhook address " + id));
    }
}
